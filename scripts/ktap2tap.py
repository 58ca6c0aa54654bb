#!/usr/bin/env python3
"""Turn the KTAP a kernel printed on its console into flat TAP, one line per
KUnit test case ("suite.case"), so it counts like the bats suites.

Every top-level KTAP document counts: the one the kernel prints at boot for
built-in suites and one per test module loaded.

What else is a failure, since a run that stopped early must not look like
a short green one:
  - a suite's top-level `not ok` (a suite whose init failed reports only
    that line, with no case);
  - a suite with fewer case results than its plan, or with no result line
    at all (the kernel stopped inside it);
  - fewer suite results than the documents' plans announced;
  - a kernel panic anywhere in the log;
  - no KTAP document at all.

usage: ktap2tap.py CONSOLE_LOG [--judged ERRORS] [--boot-failed WHY] > kunit.tap
  --judged ERRORS    the kernel-log judge's verdict on the run (the error
                     lines it found, one a line; an empty file if none):
                     one more test, "the kernel log has no error"
  --boot-failed WHY  the guest did not come up: one more failed test
"""
import argparse
import re
import sys

TS = re.compile(r"^\[\s*\d+\.\d+\] ?")
RESULT = re.compile(r"^(?P<indent>\s*)(?P<not>not )?ok \d+ (?P<name>[^#]*?)\s*(#\s*(?P<directive>.*))?$")
PLAN = re.compile(r"^(?P<indent>\s*)1\.\.(?P<n>\d+)$")
PANIC = re.compile(r"Kernel panic - not syncing|Internal error: Oops")


def convert(lines):
    out = []
    planned = done = 0
    suite = None          # the suite being reported: [name, planned, cases seen, cases failed]
    panic = None
    in_doc = False

    def add(ok, text):
        out.append("%s %d kunit %s" % ("ok" if ok else "not ok", len(out) + 1, text))

    def close_suite(top_result):
        # The suite's top-level result line (or its absence) closes it.
        name, plan, seen, _ = suite
        if plan is not None and seen < plan:
            add(False, "%s: stopped after %d of %d cases" % (name, seen, plan))
        if top_result is None:
            add(False, "%s: no result for the suite (the kernel stopped inside it)" % name)

    for line in lines:
        if panic is None and PANIC.search(line):
            panic = line.strip()
        if line == "KTAP version 1":
            in_doc = True
            continue
        if not in_doc:
            continue
        m = PLAN.match(line)
        if m:
            depth = len(m.group("indent"))
            if depth == 0:
                planned += int(m.group("n"))
            elif depth == 4 and suite is not None:
                suite[1] = int(m.group("n"))
            continue
        if re.match(r"^    # Subtest: ", line):
            if suite is not None:
                close_suite(None)
            suite = [line.split("# Subtest: ", 1)[1].strip(), None, 0, 0]
            continue
        m = RESULT.match(line)
        if not m:
            continue
        depth = len(m.group("indent"))
        directive = m.group("directive") or ""
        skip = directive.upper().startswith("SKIP")
        name = m.group("name").strip()
        if depth == 0:
            done += 1
            failed_cases = suite[3] if suite else 0
            if suite is not None:
                close_suite(line)
            # A failed suite with no failed case (its init failed, say).
            if m.group("not") and not skip and not failed_cases:
                add(False, "%s: the suite failed%s" % (name, " (" + directive + ")" if directive else ""))
            suite = None
        elif depth == 4:
            sname = suite[0] if suite else "?"
            if suite is not None:
                suite[2] += 1
                suite[3] += bool(m.group("not"))
            status = "not ok" if m.group("not") else "ok"
            skipped = " # SKIP " + directive[4:].strip() if skip else ""
            out.append("%s %d kunit %s.%s%s" % (status, len(out) + 1, sname, name, skipped))
    if suite is not None:
        close_suite(None)
    if done < planned:
        add(False, "the KTAP output stopped early (%d of %d suites)" % (done, planned))
    if planned == 0 and done == 0:
        add(False, "no KUnit suite ran (is CONFIG_CAPEBUS_KUNIT_TEST set?)")
    if panic:
        add(False, "the kernel panicked: %s" % panic)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--judged")
    ap.add_argument("--boot-failed")
    args = ap.parse_args()
    lines = [TS.sub("", l.rstrip("\n")) for l in open(args.log, errors="replace")]
    out = convert(lines)
    if args.boot_failed is not None:
        out.append("not ok %d kunit the guest booted and answered: %s" % (len(out) + 1, args.boot_failed))
    if args.judged is not None:
        errors = [l.rstrip("\n") for l in open(args.judged, errors="replace") if l.strip()]
        out.append("%s %d kunit the kernel log has no error line"
                   % ("not ok" if errors else "ok", len(out) + 1))
        out.extend("# " + l for l in errors[:10])
    print("1..%d" % sum(1 for l in out if not l.startswith("#")))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
