/**
 * Opening an evaluation item in the explorer: its trace, walked from its entry through its
 * prompt's actions, so the current node is the state the model was asked to go on from.
 * The dashboard's one way into the explorer: when deep links land (lib/deeplink.ts, another
 * branch), this is the place to switch to their item link.
 */
import type { ItemRow } from '../../../src/api/contract/index.js';
import type { AppState } from './context.js';

export type ItemPlace = Pick<ItemRow, 'traceId' | 'direction' | 'entry' | 'actions'>;

export async function openItem(app: AppState, item: ItemPlace): Promise<void> {
  app.nav.view = 'explorer';
  await app.explorer.open(item.traceId);
  if (app.explorer.traceId === item.traceId) await app.explorer.restart(item.direction, item.entry, item.actions);
}

export async function openItemById(app: AppState, id: number): Promise<void> {
  await openItem(app, await app.source.call('getItem', { id }));
}
