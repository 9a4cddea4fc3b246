// What the tree worker hands the explorer (renderer/src/lib/tree/built.ts), checked against
// plain definitions on random programs: the trees' parents, depths and subtrees, each state's
// previous state in its frame, the lines visited and the lines a breakpoint can stop at.
import { describe, expect, it } from 'vitest';
import { buildAll } from '../../renderer/src/lib/tree/built.js';
import { hittableFrom } from '../../renderer/src/lib/lines.js';
import { encodeSkeleton, skeletonBytes } from '../../src/trace/skeleton.js';
import { randomSkeleton } from './skeleton.js';

describe('building the trees of a trace', () => {
  for (const seed of [7, 8]) {
    const sk = randomSkeleton(seed, 5_000);
    const n = sk.count;
    const built = buildAll(skeletonBytes(encodeSkeleton(sk)));

    it(`forward tree: parents and kinds as recorded, depth = ancestors, subtree = later states below (seed ${seed})`, () => {
      const { fwd } = built;
      const bad: string[] = [];
      for (let s = 0; s < n && bad.length < 5; s++) {
        let d = 0;
        for (let p = sk.parent[s]; p >= 0; p = sk.parent[p]) d++;
        let end = s + 1;
        const below = (x: number) => {
          for (let p = sk.parent[x]; p >= 0; p = sk.parent[p]) if (p === s) return true;
          return false;
        };
        while (end < n && below(end)) end++;
        if (fwd.seq[s] !== s || fwd.plainOf[s] !== s || fwd.lineCallOf[s] !== -1) bad.push(`seq ${s}: not node ${s}`);
        if (fwd.parent[s] !== sk.parent[s] || fwd.kind[s] !== sk.kind[s])
          bad.push(`seq ${s}: parent ${fwd.parent[s]} kind ${fwd.kind[s]}`);
        if (fwd.depth[s] !== d || fwd.end[s] !== end)
          bad.push(`seq ${s}: depth ${fwd.depth[s]} (${d}), end ${fwd.end[s]} (${end})`);
      }
      expect(bad).toEqual([]);
    });

    it(`previous state of each frame, lines visited, lines of line events (seed ${seed})`, () => {
      const prev: number[] = [];
      for (let s = 0; s < n; s++) {
        let p = s - 1;
        while (p >= 0 && sk.frame[p] !== sk.frame[s]) p--;
        prev.push(p);
      }
      expect([...built.prevInFrame]).toEqual(prev);
      const sorted = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);
      expect([...built.visited]).toEqual(sorted(Array.from(sk.line)));
      expect([...built.lineEventLines]).toEqual(sorted(Array.from(sk.line).filter((_, s) => sk.kind[s] === 1)));
    });
  }

  it('breakpoint lines: any line with the text of a line event, never a blank one', () => {
    const lines = ['def f(x):', '    y = 1', '', '    y = 1', '    return y', ''];
    // line events on lines 2, 5 and 6 (a blank line: never offered); line 4 has line 2's text.
    expect([...hittableFrom(Int32Array.from([2, 5, 6]), lines)].sort()).toEqual([2, 4, 5]);
  });

  it('the JSON wire and the bytes give the same trees', () => {
    const sk = randomSkeleton(3, 3_000);
    const a = buildAll(encodeSkeleton(sk));
    const b = buildAll(skeletonBytes(encodeSkeleton(sk)));
    for (const k of ['seq', 'kind', 'depth', 'parent', 'end', 'plainOf', 'lineCallOf'] as const) {
      expect([...a.fwd[k]]).toEqual([...b.fwd[k]]);
      expect([...a.inv[k]]).toEqual([...b.inv[k]]);
    }
  });
});
