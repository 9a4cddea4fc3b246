"""The pipeline's shard logic (python/stepscope_pipeline/shards.py, standard library only): how
programs are read and split, which shards count as done, and what one shard's run leaves. A fake
`stepscope` stands in for the Node CLI; the Dask side is tested by test/pipeline/ (vitest)."""
import json
import os
import sys
import tempfile
import textwrap
import unittest

from stepscope_pipeline import shards

FAKE_CLI = textwrap.dedent('''
    import json, os, sys
    with open(os.environ["FAKE_LOG"], "a") as f:
        f.write(json.dumps(sys.argv[1:]) + "\\n")
    cmd = sys.argv[1]
    if cmd == os.environ.get("FAKE_FAIL"):
        print("something went wrong in " + cmd)
        sys.exit(3)
    if cmd in ("record-cruxeval", "record"):
        open(sys.argv[sys.argv.index("-o") + 1], "w").write("{}\\n")
    elif cmd == "ingest":
        open("corpus.db", "w").write("db")
    elif cmd == "dataset":
        os.mkdir("export")
''')


class ReadAndSplit(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_tasks_are_lines_and_python_files_are_programs(self):
        tasks = self.write("t.jsonl", '{"id": "a"}\n\n{"id": "b"}\n')
        prog = self.write("p.py", "print(1)\n")
        self.assertEqual(shards.read_programs([tasks, prog]),
                         [("task", '{"id": "a"}'), ("task", '{"id": "b"}'), ("file", prog)])

    def test_another_kind_of_file_or_a_missing_one_is_named(self):
        with self.assertRaisesRegex(shards.ProgramError, r"x\.txt: expected a \.jsonl file"):
            shards.read_programs([self.write("x.txt", "")])
        with self.assertRaisesRegex(shards.ProgramError, "nope.py: no such file"):
            shards.read_programs([os.path.join(self.dir, "nope.py")])

    def test_split_keeps_order_and_the_last_shard_is_shorter(self):
        self.assertEqual(shards.split(list(range(7)), 3), [[0, 1, 2], [3, 4, 5], [6]])
        with self.assertRaises(ValueError):
            shards.split([1], 0)

    def test_user_arguments_replace_the_defaults_they_name(self):
        d = ["--kind", "trajectories", "--format", "parquet"]
        self.assertEqual(shards.step_args("--format jsonl --seed 2", d),
                         ["--kind", "trajectories", "--format", "jsonl", "--seed", "2"])
        self.assertEqual(shards.step_args("--kind=traces", d), ["--format", "parquet", "--kind=traces"])
        self.assertEqual(shards.step_args("", d), d)

    def test_the_digest_follows_programs_and_options(self):
        a = shards.spec_digest([["task", "x"]], {"export": []})
        self.assertEqual(a, shards.spec_digest([["task", "x"]], {"export": []}))
        self.assertNotEqual(a, shards.spec_digest([["task", "y"]], {"export": []}))
        self.assertNotEqual(a, shards.spec_digest([["task", "x"]], {"export": ["--seed", "1"]}))


class RunShard(unittest.TestCase):
    def setUp(self):
        self.out = tempfile.mkdtemp()
        self.cli = os.path.join(self.out, "fake_cli.py")
        with open(self.cli, "w") as f:
            f.write(FAKE_CLI)
        self.log = os.path.join(self.out, "calls.log")
        os.environ["FAKE_LOG"] = self.log
        os.environ.pop("FAKE_FAIL", None)
        self.addCleanup(os.environ.pop, "FAKE_FAIL", None)

    def spec(self, export=()):
        programs = [["task", '{"id": "a"}'], ["file", "/x/p.py"]]
        options = {"record": [], "sample": ["--seed", "1"], "export": list(export)}
        return dict(options, index=3, out=self.out, programs=programs, node=sys.executable, cli=self.cli,
                    digest=shards.spec_digest(programs, options))

    def calls(self):
        with open(self.log) as f:
            return [json.loads(line)[0] for line in f]

    def test_a_shard_clears_a_lost_attempt_and_writes_its_entry_last(self):
        d = shards.shard_dir(self.out, 3)
        os.makedirs(d)
        with open(os.path.join(d, "stale.trace.jsonl"), "w") as f:
            f.write("half a line")
        spec = self.spec()
        entry = shards.run_shard(spec)
        self.assertEqual(self.calls(), ["record-cruxeval", "record", "ingest", "sample", "dataset"])
        self.assertEqual(sorted(os.listdir(d)), ["corpus.db", "export", "shard.json", "steps.log", "tasks.jsonl"])
        self.assertEqual(entry["programs"], 2)
        # Where the shard's time went: each step's wall seconds (record: the tasks and the file together).
        self.assertEqual(sorted(entry["step_seconds"]), ["export", "ingest", "record", "sample"])
        self.assertTrue(all(s > 0 for s in entry["step_seconds"].values()))
        self.assertLessEqual(sum(entry["step_seconds"].values()), entry["seconds"])
        self.assertEqual(shards.done_entry(self.out, 3, spec["digest"]), entry)
        # Done: run again, nothing runs.
        self.assertEqual(shards.run_shard(spec), entry)
        self.assertEqual(len(self.calls()), 5)
        # Other options: not done, redone.
        self.assertIsNone(shards.done_entry(self.out, 3, self.spec(["--seed", "9"])["digest"]))

    def test_a_failing_step_raises_with_its_output_and_leaves_no_entry(self):
        os.environ["FAKE_FAIL"] = "sample"
        with self.assertRaisesRegex(RuntimeError, "sample exited with 3: .*something went wrong in sample"):
            shards.run_shard(self.spec())
        self.assertFalse(os.path.exists(os.path.join(shards.shard_dir(self.out, 3), "shard.json")))


if __name__ == "__main__":
    unittest.main()
