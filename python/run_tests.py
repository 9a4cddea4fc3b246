#!/usr/bin/env python3
"""Runs the recorder's unittest suites.

    python3 python/run_tests.py [--json FILE] [-k PATTERN] [-v] [--module NAME]... [--pythons]

--json FILE writes {"passed": N, "failed": N, "skipped": N} (read by scripts/test-all.mjs).
--pythons runs the suite under every supported Python found (3.11 to 3.14): the whole suite
under this interpreter, the modules whose results depend on the version (VERSION_SENSITIVE)
under each other one; it prints which ran and which were not found, and the counts are summed.
An interpreter is looked for in $STEPSCOPE_PYTHONS (paths, separated by os.pathsep), then as
python3.X on PATH, then in pyenv's versions folder ($PYENV_ROOT or ~/.pyenv), then in
/usr/bin and /usr/local/bin; each candidate is run once to check its version.
Exits non-zero when a test fails or errors."""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SUPPORTED = ((3, 11), (3, 12), (3, 13), (3, 14))
# What the other interpreters run: the traces themselves (goldens, exits, the demo, limits,
# values, the semantics' examples), process containment and the trust checks, the execution
# sandbox. Left to the main interpreter: all 800 CRUXEval tasks (about two minutes a version),
# the CLI's argument handling, the file format's writing and the line-length check.
VERSION_SENSITIVE = ("test_golden", "test_exits", "test_events", "test_backends", "test_demo", "test_hostile",
                     "test_limits", "test_values", "test_spec_examples", "test_trust", "test_execute",
                     "test_counterfactual")


def version_of(exe):
    """(major, minor, 'X.Y.Z') of interpreter `exe`, or None when it does not run (a pyenv
    shim for a version that is not selected exits with an error)."""
    try:
        r = subprocess.run([exe, "-c", "import sys; print('%d %d %s' % (sys.version_info[:2] + "
                            "(sys.version.split()[0],)))"],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = r.stdout.split()
    if r.returncode != 0 or len(parts) != 3:
        return None
    return int(parts[0]), int(parts[1]), parts[2]


def candidates(minor):
    """Paths that may be Python 3.`minor`, in the order they are tried."""
    name = "python3.%d" % minor
    listed = os.environ.get("STEPSCOPE_PYTHONS", "")
    yield from (p for p in listed.split(os.pathsep) if p.strip())
    on_path = shutil.which(name)
    if on_path:
        yield on_path
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    found = glob.glob(os.path.join(pyenv, "versions", "3.%d.*" % minor, "bin", name))

    def patch(path):
        text = path.split(os.sep)[-3].split(".")[2]
        return int(text) if text.isdigit() else -1  # 3.14.0rc1 and the like before 3.14.0
    yield from sorted(found, key=patch, reverse=True)
    for folder in ("/usr/local/bin", "/usr/bin"):
        yield os.path.join(folder, name)


def find_pythons():
    """{(3, X): (path, 'X.Y.Z')} for each supported version found, this interpreter included."""
    found = {sys.version_info[:2]: (sys.executable, sys.version.split()[0])}
    for major, minor in SUPPORTED:
        if (major, minor) in found:
            continue
        for path in candidates(minor):
            if not os.path.exists(path):
                continue
            v = version_of(path)
            if v is not None and v[:2] == (major, minor):
                found[(major, minor)] = (path, v[2])
                break
    return found


def run_here(args):
    """Runs the suite (or args.module) in this process; returns (passed, failed, skipped, run)."""
    sys.path.insert(0, HERE)
    loader = unittest.TestLoader()
    if args.pattern:
        loader.testNamePatterns = ["*%s*" % p for p in args.pattern]
    if args.module:
        suite = unittest.TestSuite(loader.loadTestsFromName("tests." + m) for m in args.module)
    else:
        suite = loader.discover(os.path.join(HERE, "tests"), top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=2 if args.verbose else 1).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    skipped = len(result.skipped)
    return result.testsRun - failed - skipped, failed, skipped, result.testsRun


def run_elsewhere(exe, args):
    """The version-sensitive modules under interpreter `exe`; (passed, failed, skipped)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "counts.json")
        cmd = [exe, os.path.abspath(__file__), "--json", out]
        for m in VERSION_SENSITIVE:
            cmd += ["--module", m]
        for p in args.pattern or ():
            cmd += ["-k", p]
        if args.verbose:
            cmd.append("-v")
        env = {k: v for k, v in os.environ.items() if k != "STEPSCOPE_TEST_CRUXEVAL"}
        subprocess.run(cmd, env=env)
        try:
            with open(out) as f:
                c = json.load(f)
            return c["passed"], c["failed"], c["skipped"]
        except (OSError, ValueError, KeyError):
            return 0, 1, 0  # the run broke before it could count: one failure


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="FILE", help="write the counts to FILE")
    ap.add_argument("-k", dest="pattern", action="append",
                    help="only tests whose id contains PATTERN (repeatable)")
    ap.add_argument("--module", action="append",
                    help="only this module of tests/ (test_golden …; repeatable)")
    ap.add_argument("--pythons", action="store_true",
                    help="also under every other supported Python found (see above)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    lines = []
    if args.pythons:
        pythons = find_pythons()
        here = sys.version_info[:2]
        print("Pythons: %s" % ", ".join(
            "%d.%d %s" % (v + (("(%s, %s)" % (pythons[v][1], pythons[v][0])) if v in pythons else "not found",))
            for v in SUPPORTED), flush=True)
    passed, failed, skipped, ran = run_here(args)
    if args.pythons:
        lines.append("Python %s (whole suite): %d passed, %d failed, %d skipped" % (
            pythons[here][1], passed, failed, skipped))
        for v in SUPPORTED:
            if v == here or v not in pythons:
                continue
            exe, full = pythons[v]
            print("\n== Python %s (%s): %s" % (full, exe, ", ".join(VERSION_SENSITIVE)), flush=True)
            p, f, s = run_elsewhere(exe, args)
            lines.append("Python %s (version-sensitive modules): %d passed, %d failed, %d skipped" % (full, p, f, s))
            passed, failed, skipped, ran = passed + p, failed + f, skipped + s, ran + p + f + s
        lines += ["Python %d.%d: not found" % v for v in SUPPORTED if v not in pythons]
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"passed": passed, "failed": failed, "skipped": skipped}, f)
    for line in lines:
        print(line)
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 0 if failed == 0 and ran > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
