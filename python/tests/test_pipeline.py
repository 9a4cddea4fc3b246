"""The pipeline's shard logic (python/stepscope_pipeline/shards.py, standard library only): how
programs are read and split, which shards count as done, and what one shard's run leaves. A fake
`stepscope` stands in for the Node CLI; the Dask side is tested by test/pipeline/ (vitest)."""
import hashlib
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

    def test_user_arguments_replace_the_defaults_they_name(self):
        d = ["--kind", "trajectories", "--format", "parquet"]
        self.assertEqual(shards.step_args("--format jsonl --seed 2", d),
                         ["--kind", "trajectories", "--format", "jsonl", "--seed", "2"])
        self.assertEqual(shards.step_args("--kind=traces", d), ["--format", "parquet", "--kind=traces"])
        self.assertEqual(shards.step_args("", d), d)

    def test_planned_shards_say_where_their_programs_are_and_have_the_digest_of_their_programs(self):
        options = {"record": [], "sample": ["--seed", "1"], "export": []}
        lines = ['{"id": "t%d", "note": "\u00e9"}' % k for k in range(5)]
        # Blank lines and a Windows line ending are skipped and stripped as read_programs does.
        a = self.write("a.jsonl", lines[0] + "\n\n" + lines[1] + "\r\n" + lines[2] + "\n")
        b = self.write("b.jsonl", lines[3] + "\n" + lines[4])
        prog = self.write("p.py", "print(1)\n")
        paths = [a, prog, b]
        programs = [list(p) for p in shards.read_programs(paths)]
        self.assertEqual([p[1] for p in programs if p[0] == "task"], lines)
        parts = list(shards.plan_shards(paths, 2, options))
        self.assertEqual([p["programs"] for p in parts], [2, 2, 2])
        for k, part in enumerate(parts):
            mine = programs[2 * k:2 * k + 2]
            self.assertEqual(shards.load_programs(part["sources"]), mine)
            # The digest shards done by an earlier run were written with: they stay done.
            whole = json.dumps({"programs": mine, "options": options}, sort_keys=True).encode()
            self.assertEqual(part["digest"], hashlib.sha256(whole).hexdigest())
            self.assertEqual(shards.spec_digest(mine, options), part["digest"])
        # In order, the last shard shorter.
        self.assertEqual([p["programs"] for p in shards.plan_shards(paths, 4, options)], [4, 2])
        self.assertEqual(parts[1]["sources"], [[os.path.abspath(a), parts[1]["sources"][0][1], os.path.getsize(a)],
                                               ["file", prog]])
        # A shard of many lines of one file is one byte span, whatever its size.
        many = self.write("many.jsonl", "".join('{"id": "m%d"}\n' % k for k in range(1000)))
        (only,) = shards.plan_shards([many], 1000, options)
        self.assertEqual(only["sources"], [[os.path.abspath(many), 0, os.path.getsize(many)]])
        with self.assertRaises(ValueError):
            list(shards.plan_shards([many], 0, options))

    def test_a_line_that_is_not_utf8_is_named_with_its_file_and_line(self):
        bad = os.path.join(self.dir, "bad.jsonl")
        with open(bad, "wb") as f:
            f.write(b'{"id": "a"}\n{"id": "\xff"}\n')
        with self.assertRaisesRegex(shards.ProgramError, r"bad\.jsonl: line 2 \(byte 12\) is not UTF-8"):
            list(shards.plan_shards([bad], 10, {}))

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

    def test_a_shard_planned_from_a_file_reads_it_and_refuses_it_changed(self):
        tasks = os.path.join(self.out, "in.jsonl")
        with open(tasks, "w") as f:
            f.write('{"id": "a"}\n{"id": "b"}\n{"id": "c"}\n')
        options = {"record": [], "sample": [], "export": []}
        parts = list(shards.plan_shards([tasks], 2, options))
        spec = dict(options, index=1, out=self.out, sources=parts[1]["sources"], node=sys.executable, cli=self.cli,
                    digest=parts[1]["digest"])
        spec0 = dict(spec, index=0, sources=parts[0]["sources"], digest=parts[0]["digest"])
        self.assertEqual(shards.run_shard(spec)["programs"], 1)
        with open(os.path.join(shards.shard_dir(self.out, 1), "tasks.jsonl")) as f:
            self.assertEqual(f.read(), '{"id": "c"}\n')
        with open(tasks, "w") as f:
            f.write('{"id": "A"}\n{"id": "b"}\n{"id": "c"}\n')
        with self.assertRaisesRegex(RuntimeError, "shard 0000: its programs changed since the pipeline read them"):
            shards.run_shard(spec0)
        self.assertEqual(self.calls(), ["record-cruxeval", "ingest", "sample", "dataset"])

    def test_a_failing_step_raises_with_its_output_and_leaves_no_entry(self):
        os.environ["FAKE_FAIL"] = "sample"
        with self.assertRaisesRegex(RuntimeError, "sample exited with 3: .*something went wrong in sample"):
            shards.run_shard(self.spec())
        self.assertFalse(os.path.exists(os.path.join(shards.shard_dir(self.out, 3), "shard.json")))


if __name__ == "__main__":
    unittest.main()
