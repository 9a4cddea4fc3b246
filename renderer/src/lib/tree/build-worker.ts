/// <reference lib="webworker" />
// The tree-building worker (built.ts): one message in ({id, wire}: the skeleton, or how to
// fetch it), one out ({id, built} with its typed arrays transferred, or {id, error, code}:
// an API failure keeps its code).
import { buildFrom, transferables, type BuildInput } from './built.js';

self.onmessage = async (e: MessageEvent<{ id: number; wire: BuildInput }>) => {
  try {
    const built = await buildFrom(e.data.wire);
    (self as unknown as Worker).postMessage({ id: e.data.id, built }, transferables(built));
  } catch (err) {
    (self as unknown as Worker).postMessage({
      id: e.data.id,
      error: (err as Error).message,
      code: (err as { code?: string }).code,
    });
  }
};
