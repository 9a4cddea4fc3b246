"""Synthetic programs for bench/pipeline.mjs: CRUXEval's functions called on new inputs.

    python3 bench/_pipeline-programs.py N OUT.jsonl [SEED]

Task k is function k mod 800 of resources/cruxeval/cruxeval.jsonl with each argument of its
input changed a little (numbers moved, strings and lists shuffled or grown), seeded. The output
field is left empty: nothing here knows it, and the pipeline does not read it."""
import ast
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def mutate(v, rng):
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return v + rng.randint(-3, 3)
    if isinstance(v, float):
        return round(v * rng.uniform(0.5, 1.5), 3)
    if isinstance(v, str):
        chars = list(v)
        rng.shuffle(chars)
        if rng.random() < 0.3:
            chars.append(rng.choice("abcxyz019 "))
        return "".join(chars)
    if isinstance(v, list):
        items = [mutate(x, rng) for x in v]
        rng.shuffle(items)
        if items and rng.random() < 0.3:
            items.append(rng.choice(items))
        return items
    if isinstance(v, tuple):
        return tuple(mutate(x, rng) for x in v)
    if isinstance(v, dict):
        return {k: mutate(x, rng) for k, x in v.items()}
    return v


def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    with open(os.path.join(HERE, "..", "resources", "cruxeval", "cruxeval.jsonl"), encoding="utf-8") as f:
        tasks = [json.loads(line) for line in f if line.strip()]
    rng = random.Random(seed)
    with open(out, "w", encoding="utf-8") as f:
        for k in range(n):
            t = tasks[k % len(tasks)]
            try:
                args = ast.literal_eval("(%s,)" % t["input"])
                call = ", ".join(repr(mutate(a, rng)) for a in args)
            except (ValueError, SyntaxError):
                call = t["input"]  # not a literal: the original input
            if "\n" in call:
                call = t["input"]
            f.write(json.dumps({"id": "syn_%d_%s" % (k, t["id"]), "code": t["code"], "input": call,
                                "output": ""}) + "\n")


main()
