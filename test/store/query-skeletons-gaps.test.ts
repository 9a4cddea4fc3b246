/**
 * The kept skeleton (queries/skeletons.ts): opening a trace reads its one kept row, not all
 * of its events. The mutation run of src/store/queries found that untested: the skeleton
 * packed again from the events is the same bytes, so only the reading differs. The corpus is built in the test.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

describe('the kept skeleton', () => {
  it('is what a trace opens from: the events are not read while the row is there', async () => {
    const dir = tempDir();
    const c = openCorpus(join(dir, 'c.db'), { create: true });
    await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'a', n: 3 }]));
    const [id] = c.traceIds();
    const kept = c.getSkeletonBytes(id);
    const wire = c.getPackedSkeleton(id);
    expect(kept).toBeInstanceOf(Uint8Array);
    // Move every event one line down, behind the corpus's back: a skeleton packed from the
    // events would now differ from the kept row, so equal answers show the row was read.
    connectionOf(c).prepare('UPDATE events SET line = line + 1 WHERE trace_id = ?').run(id);
    expect(c.getSkeletonBytes(id)).toEqual(kept);
    expect(c.getPackedSkeleton(id)).toEqual(wire);
    // Without the row, the trace opens from its (now changed) events.
    connectionOf(c).prepare('DELETE FROM trace_skeletons WHERE trace_id = ?').run(id);
    expect(c.getSkeletonBytes(id)).not.toEqual(kept);
    c.close();
  });
});
