/// <reference lib="webworker" />
// The tree-building worker (built.ts): one message in ({id, wire}), one out ({id, built} with
// its typed arrays transferred, or {id, error}).
import { buildAll, transferables } from './built.js';

self.onmessage = (e: MessageEvent<{ id: number; wire: Parameters<typeof buildAll>[0] }>) => {
  try {
    const built = buildAll(e.data.wire);
    (self as unknown as Worker).postMessage({ id: e.data.id, built }, transferables(built));
  } catch (err) {
    (self as unknown as Worker).postMessage({ id: e.data.id, error: (err as Error).message });
  }
};
