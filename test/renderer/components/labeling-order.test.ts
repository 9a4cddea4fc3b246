// The labeling queue's state (renderer/src/state/labeling.svelte.ts) when answers come late or
// out of order (a slow server): each filter change reopens the queue, so several opens run at
// once. Only the newest lands its queue, together with its first item, and an open that lands
// after the user moved on leaves them on the item they are on (e2e/labeling.spec.ts walked the
// queue with → and Enter right after three filter changes, and was sent back to the first item).
import { beforeEach, describe, expect, it } from 'vitest';
import { ANY_CHOICE, Labeling } from '../../../renderer/src/state/labeling.svelte.js';
import { LabelingSource, type FakeEntry } from './labeling-source.js';

// Six predictions; pre-label `a` on 2–5, `b` on 5–6.
const ENTRIES: FakeEntry[] = [1, 2, 3, 4, 5, 6].map((p) => ({
  prediction: p,
  key: `task/${p}`,
  prelabels: [...(p >= 2 && p <= 5 ? ['a'] : []), ...(p >= 5 ? ['b'] : [])],
}));

async function opened(source: LabelingSource): Promise<Labeling> {
  const lab = new Labeling(source);
  lab.set = 'crux';
  lab.run = 'model';
  lab.setAnnotator('flo');
  await lab.start();
  return lab;
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const shown = (lab: Labeling) => ({
  keys: lab.queue?.entries.map((e) => e.key),
  index: lab.index,
  item: lab.item?.item.key,
});

describe('labeling queue: answers landing late', () => {
  beforeEach(() => localStorage.clear());

  it("an older filter's queue answered last does not replace the newest filter's queue or item", async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    expect(shown(lab)).toEqual({ keys: ENTRIES.map((e) => e.key), index: 0, item: 'task/1' });
    const releaseA = source.hold('annotationQueue', (p) => p.prelabel === 'a');
    const toA = lab.filter({ ...ANY_CHOICE, prelabel: 'a' });
    // `a`'s queue is asked for (and held) before the filter changes again.
    while (
      !source.log.some((c) => c.method === 'annotationQueue' && (c.params as { prelabel?: string }).prelabel === 'a')
    )
      await tick();
    await lab.filter({ ...ANY_CHOICE, prelabel: 'b' });
    expect(shown(lab)).toEqual({ keys: ['task/5', 'task/6'], index: 0, item: 'task/5' });
    releaseA();
    await toA;
    expect(shown(lab)).toEqual({ keys: ['task/5', 'task/6'], index: 0, item: 'task/5' });
    expect(lab.choice.prelabel).toBe('b');
  });

  it('an open landing after the user pressed → twice keeps them on the item they moved to', async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    // "labeled by nobody" lists the same entries here (nothing is labeled yet): its queue is held.
    const release = source.hold('annotationQueue', (p) => p.labeled === 'no');
    const reopening = lab.filter({ ...ANY_CHOICE, labeled: 'no' });
    await lab.next();
    await lab.next();
    expect(shown(lab)).toMatchObject({ index: 2, item: 'task/3' });
    release();
    await reopening;
    expect(shown(lab)).toEqual({ keys: ENTRIES.map((e) => e.key), index: 2, item: 'task/3' });
    // The queue landed is the new one: → goes on from there.
    await lab.next();
    expect(shown(lab)).toMatchObject({ index: 3, item: 'task/4' });
  });

  it('Enter while a reopened queue is on its way: the next item stays open when the queue lands without the one labeled', async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    const release = source.hold('annotationQueue', (p) => p.labeled === 'no');
    const reopening = lab.filter({ ...ANY_CHOICE, labeled: 'no' });
    await lab.next(); // task/2, pre-labeled `a`
    await lab.accept(); // labels task/2 with `a`, opens task/3
    while (lab.pending) await tick();
    expect(source.labels.get(2)).toEqual(['a']);
    expect(shown(lab)).toMatchObject({ index: 2, item: 'task/3' });
    release();
    await reopening;
    // Asked after the save, the queue no longer lists task/2: task/3 is its second entry.
    expect(shown(lab)).toEqual({ keys: ['task/1', 'task/3', 'task/4', 'task/5', 'task/6'], index: 1, item: 'task/3' });
  });

  it('an item asked for on the queue before, answered after a new queue opened at the same position, is not shown', async () => {
    const source = new LabelingSource(ENTRIES);
    source.labels.set(2, ['a']); // pre-label `a`'s queue (task/2–5) opens at its second entry, task/3
    // task/2 is asked for (and held) as the preload of task/1; → to it waits for that answer.
    const releaseItem = source.hold('getAnnotationItem', (p) => p.prediction === 2);
    const lab = await opened(source);
    const moving = lab.next();
    await lab.filter({ ...ANY_CHOICE, prelabel: 'a' });
    expect(shown(lab)).toEqual({ keys: ['task/2', 'task/3', 'task/4', 'task/5'], index: 1, item: 'task/3' });
    releaseItem();
    await moving;
    expect(shown(lab)).toEqual({ keys: ['task/2', 'task/3', 'task/4', 'task/5'], index: 1, item: 'task/3' });
  });

  it('a filter that leaves nothing, landing while an item of the queue before is on its way: nothing is shown', async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    // task/3 is asked for (and held) as the preload of task/2; → to it waits for that answer.
    const releaseItem = source.hold('getAnnotationItem', (p) => p.prediction === 3);
    await lab.next();
    const moving = lab.next();
    await lab.filter({ ...ANY_CHOICE, prelabel: 'none-such' });
    expect(lab.queue?.entries).toEqual([]);
    expect(lab.item).toBeNull();
    releaseItem();
    await moving;
    expect(lab.queue?.entries).toEqual([]);
    expect(lab.item).toBeNull();
  });

  it("a new filter's queue lands with its first item: the position never shows over the item of the queue before", async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    const releaseItem = source.hold('getAnnotationItem', (p) => p.prediction === 5);
    const reopening = lab.filter({ ...ANY_CHOICE, prelabel: 'b' });
    while (
      !source.log.some((c) => c.method === 'getAnnotationItem' && (c.params as { prediction: number }).prediction === 5)
    )
      await tick();
    await tick();
    expect(shown(lab)).toEqual({ keys: ENTRIES.map((e) => e.key), index: 0, item: 'task/1' });
    releaseItem();
    await reopening;
    expect(shown(lab)).toEqual({ keys: ['task/5', 'task/6'], index: 0, item: 'task/5' });
  });

  it('an undo reaching back reloads the queue, and that reload answered after a newer filter opened does not land', async () => {
    const source = new LabelingSource(ENTRIES);
    // A label of an earlier session, on task/1: this session has not touched it.
    source.labels.set(1, ['a']);
    source.changes.push({ prediction: 1, before: undefined });
    const lab = await opened(source);
    expect(shown(lab)).toMatchObject({ index: 1, item: 'task/2' });
    const releaseReload = source.hold('annotationQueue', (p) => !p.prelabel);
    await lab.undo(); // shows task/1 again and asks for the queue (held)
    expect(lab.item?.item.key).toBe('task/1');
    await lab.filter({ ...ANY_CHOICE, prelabel: 'b' });
    expect(shown(lab)).toEqual({ keys: ['task/5', 'task/6'], index: 0, item: 'task/5' });
    releaseReload();
    await tick();
    expect(shown(lab)).toEqual({ keys: ['task/5', 'task/6'], index: 0, item: 'task/5' });
  });

  it('an undo reaching back to an item the filter had left out: the reloaded queue lists it, and the position follows the item shown', async () => {
    const source = new LabelingSource(ENTRIES);
    // task/2 labeled in an earlier session: "labeled by nobody" leaves it out.
    source.labels.set(2, ['a']);
    source.changes.push({ prediction: 2, before: undefined });
    localStorage.setItem('stepscope.labelFilter', JSON.stringify({ ...ANY_CHOICE, labeled: 'no' }));
    const lab = await opened(source);
    expect(shown(lab)).toMatchObject({
      keys: ['task/1', 'task/3', 'task/4', 'task/5', 'task/6'],
      index: 0,
      item: 'task/1',
    });
    await lab.next();
    await lab.next();
    expect(shown(lab)).toMatchObject({ index: 2, item: 'task/4' });
    await lab.undo(); // task/2 is not in the queue shown: the item stays, the queue is asked for again
    while (lab.queue?.entries.length !== 6) await tick();
    expect(shown(lab)).toEqual({ keys: ENTRIES.map((e) => e.key), index: 3, item: 'task/4' });
    await lab.next();
    expect(shown(lab)).toMatchObject({ index: 4, item: 'task/5' });
  });
});

describe('labeling queue: keys pressed while the next item is on its way', () => {
  beforeEach(() => localStorage.clear());

  it('Enter, then a label key before the next item is answered: the key labels that item, and the one before keeps its label', async () => {
    const source = new LabelingSource(ENTRIES);
    // the next item, preloaded or asked for
    const release = source.hold('getAnnotationItem', (p) => p.prediction === 2);
    const lab = await opened(source);
    const label = lab.openGroupLabels.find((l) => l.key === 1)!.id;
    await lab.toggleKey(1);
    expect(source.labels.get(1)).toEqual([label]);
    const moving = lab.accept(); // Enter: the position moves to task/2, whose item is held
    while (lab.index !== 1) await tick();
    expect(lab.item?.item.key).toBe('task/1');
    const pressed = lab.toggleKey(1);
    release();
    await Promise.all([moving, pressed]);
    while (lab.pending) await tick();
    expect(shown(lab)).toMatchObject({ index: 1, item: 'task/2' });
    expect(source.labels.get(1)).toEqual([label]);
    expect(source.labels.get(2)).toEqual([label]);
    expect(lab.labels).toEqual([label]);
  });

  it("Enter twice before the next item is answered: the second Enter accepts that item's pre-labels and opens the one after", async () => {
    const source = new LabelingSource(ENTRIES);
    const release = source.hold('getAnnotationItem', (p) => p.prediction === 2);
    const lab = await opened(source);
    const first = lab.accept(); // task/1 has no pre-labels: nothing is written; task/2 (pre-label `a`) is held
    while (lab.index !== 1) await tick();
    const second = lab.accept();
    await tick();
    release();
    await Promise.all([first, second]);
    while (lab.pending) await tick();
    expect(shown(lab)).toMatchObject({ index: 2, item: 'task/3' });
    expect(source.labels.get(2)).toEqual(['a']);
    expect(source.labels.has(1)).toBe(false);
  });

  it('S twice while the first skip is being saved: the second skips the next item, not the same one again', async () => {
    const source = new LabelingSource(ENTRIES);
    const release = source.hold('skipAnnotation', (p) => p.target.prediction === 1);
    const lab = await opened(source);
    const first = lab.skip();
    while (!source.log.some((c) => c.method === 'skipAnnotation')) await tick();
    const second = lab.skip();
    await tick();
    release();
    await Promise.all([first, second]);
    expect(source.skips).toEqual([1, 2]);
    expect(shown(lab)).toMatchObject({ index: 2, item: 'task/3' });
  });

  it('a label key, then Enter before the label is saved, on a pre-labeled item: the label given is kept, the pre-labels are not written over it', async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    await lab.next(); // task/2, pre-labeled `a`
    const label = lab.openGroupLabels.find((l) => l.key === 1)!.id;
    expect(label).not.toBe('a');
    const release = source.hold('annotate');
    const pressed = lab.toggleKey(1);
    const entered = lab.accept();
    await tick();
    release();
    await Promise.all([pressed, entered]);
    while (lab.pending) await tick();
    expect(source.labels.get(2)).toEqual([label]);
    expect(shown(lab)).toMatchObject({ index: 2, item: 'task/3' });
  });

  it('a label key pressed twice before the first press is saved: the label is on, then off again', async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    const release = source.hold('annotate');
    const once = lab.toggleKey(1);
    const twice = lab.toggleKey(1);
    await tick();
    release();
    await Promise.all([once, twice]);
    expect(source.changes.map((c) => c.prediction)).toEqual([1, 1]);
    expect(source.labels.get(1)).toEqual([]);
    expect(lab.labels).toEqual([]);
  });
});

describe('labeling queue: a note typed while a label is being saved (issue 29)', () => {
  beforeEach(() => localStorage.clear());

  it('a label answered mid-note leaves the text typed; Enter writes the note alone, the label stays', async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    const label = lab.openGroupLabels.find((l) => l.key === 1)!.id;
    const release = source.hold('annotate');
    const given = lab.toggleKey(1);
    const opening = lab.openNote();
    // The note opens once the label is saved (keys run in order); typed ahead meanwhile, its text is kept.
    while (!source.log.some((c) => c.method === 'annotate')) await tick();
    release();
    await Promise.all([given, opening]);
    expect(lab.noteOpen).toBe(true);
    lab.typeNote('note 0');
    expect(lab.draft).toBe('note 0');
    await lab.saveNote();
    while (lab.pending) await tick();
    expect(source.writes).toEqual([
      { prediction: 1, labels: [label] },
      { prediction: 1, note: 'note 0' },
    ]);
    expect(source.labels.get(1)).toEqual([label]);
    expect([lab.labels, lab.note, lab.draft, lab.noteOpen]).toEqual([[label], 'note 0', 'note 0', false]);
  });

  it('a label answered while the note is open does not write over what is being typed', async () => {
    const source = new LabelingSource(ENTRIES);
    const lab = await opened(source);
    await lab.openNote();
    lab.typeNote('looks');
    const release = source.hold('annotate');
    const given = lab.setLabels(['a']); // e.g. a write sent just before N
    lab.typeNote(' off');
    release();
    await given;
    expect(lab.labels).toEqual(['a']);
    expect(lab.draft).toBe('looks off');
    lab.eraseNote();
    expect(lab.draft).toBe('looks of');
    lab.leaveNote(); // Esc: unsaved, the saved note shows again
    expect([lab.draft, lab.noteOpen]).toEqual(['', false]);
    expect(source.notes.has(1)).toBe(false);
  });

  it('the next item opens on the first group and its own saved note, whatever the item before left open', async () => {
    const source = new LabelingSource(ENTRIES);
    source.notes.set(2, 'seen before');
    const lab = await opened(source);
    lab.cycleGroup(1);
    lab.cycleGroup(1);
    await lab.openNote();
    lab.typeNote('unsaved');
    await lab.next();
    expect([lab.group, lab.noteOpen, lab.draft, lab.note]).toEqual([0, false, 'seen before', 'seen before']);
    lab.cycleGroup(-1);
    expect(lab.group).toBe(lab.groups.length - 1);
  });
});
