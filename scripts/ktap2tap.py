#!/usr/bin/env python3
"""Turn the KTAP a kernel printed on its console into flat TAP, one line per
KUnit test case ("suite.case"), so it counts like the bats suites.

Every top-level KTAP document counts: the one the kernel prints at boot for
built-in suites and one per test module loaded.

usage: ktap2tap.py CONSOLE_LOG > kunit.tap
"""
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\] ?")
RESULT = re.compile(r"^(?P<indent>\s*)(?P<not>not )?ok \d+ (?P<name>[^#]*?)\s*(#\s*(?P<directive>.*))?$")
PLAN = re.compile(r"^1\.\.(\d+)$")


def main():
    lines = [TS.sub("", l.rstrip("\n")) for l in open(sys.argv[1], errors="replace")]
    out = []
    planned = done = 0
    suite = None
    in_doc = False
    for line in lines:
        if line == "KTAP version 1":
            in_doc = True
            continue
        if not in_doc:
            continue
        m = PLAN.match(line)
        if m:
            planned += int(m.group(1))
            continue
        if re.match(r"^    # Subtest: ", line):
            suite = line.split("# Subtest: ", 1)[1].strip()
            continue
        m = RESULT.match(line)
        if not m:
            continue
        depth = len(m.group("indent"))
        directive = m.group("directive") or ""
        if depth == 0:
            done += 1
        elif depth == 4:
            status = "not ok" if m.group("not") else "ok"
            skip = " # SKIP " + directive[4:].strip() if directive.upper().startswith("SKIP") else ""
            out.append("%s %d kunit %s.%s%s" % (status, len(out) + 1, suite, m.group("name").strip(), skip))
    if done < planned:
        out.append("not ok %d kunit: the KTAP output stopped early (%d of %d suites)"
                   % (len(out) + 1, done, planned))
    if planned == 0:
        out.append("not ok %d kunit: no KUnit suite ran (is CONFIG_CAPEBUS_KUNIT_TEST set?)" % (len(out) + 1))
    print("1..%d" % len(out))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
