#!/usr/bin/env python3
"""Runs the recorder's unittest suites.

    python3 python/run_tests.py [--json FILE] [-k PATTERN] [-v]

--json FILE writes {"passed": N, "failed": N, "skipped": N} (read by scripts/test-all.mjs).
Exits non-zero when a test fails or errors."""
import argparse
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="FILE", help="write the counts to FILE")
    ap.add_argument("-k", dest="pattern", action="append",
                    help="only tests whose id contains PATTERN (repeatable)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, HERE)
    loader = unittest.TestLoader()
    if args.pattern:
        loader.testNamePatterns = ["*%s*" % p for p in args.pattern]
    suite = loader.discover(os.path.join(HERE, "tests"), top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=2 if args.verbose else 1).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    passed = result.testsRun - failed - skipped
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"passed": passed, "failed": failed, "skipped": skipped}, f)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
