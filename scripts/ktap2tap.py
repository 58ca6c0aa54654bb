#!/usr/bin/env python3
"""Turn the KTAP a kernel printed on its console into flat TAP, one line per
KUnit test case ("suite.case"), so it counts like the bats suites.

usage: ktap2tap.py CONSOLE_LOG > kunit.tap
Exit status 1 if no KTAP was found or the suites' plan was not completed.
"""
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\] ?")
RESULT = re.compile(r"^(?P<indent>\s*)(?P<not>not )?ok \d+ (?P<name>[^#]*?)\s*(#\s*(?P<directive>.*))?$")
PLAN = re.compile(r"^\s*1\.\.(\d+)$")


def main():
    lines = [TS.sub("", l.rstrip("\n")) for l in open(sys.argv[1], errors="replace")]
    try:
        start = next(i for i, l in enumerate(lines) if l.strip() == "KTAP version 1")
    except StopIteration:
        print("1..1\nnot ok 1 kunit: no KTAP output on the console")
        return 1
    plan = None
    suites_done = 0
    suite = None
    out = []
    for line in lines[start + 1:]:
        m = PLAN.match(line)
        if m and plan is None and not line.startswith(" "):
            plan = int(m.group(1))
            continue
        if re.match(r"^\s+# Subtest: ", line) and len(line) - len(line.lstrip()) == 4:
            suite = line.split("# Subtest: ", 1)[1].strip()
            continue
        m = RESULT.match(line)
        if not m:
            continue
        depth = len(m.group("indent"))
        name = m.group("name").strip()
        directive = m.group("directive") or ""
        if depth == 0:
            suites_done += 1
            if plan is not None and suites_done >= plan:
                break
        elif depth == 4:
            status = "not ok" if m.group("not") else "ok"
            skip = " # SKIP " + directive[4:].strip() if directive.upper().startswith("SKIP") else ""
            out.append("%s %d kunit %s.%s%s" % (status, len(out) + 1, suite, name, skip))
    if plan is None or suites_done < plan:
        out.append("not ok %d kunit: the KTAP output stopped before its plan (%s of %s suites)"
                   % (len(out) + 1, suites_done, plan))
    if plan == 0:
        out.append("not ok %d kunit: no KUnit suite ran (is CONFIG_CAPEBUS_KUNIT_TEST set?)" % (len(out) + 1))
    print("1..%d" % len(out))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
