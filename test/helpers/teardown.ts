/** Closing what a test started, so a failing test does not leave servers behind. */
import { afterEach } from 'vitest';

/**
 * Call at a test file's top level: returns `keep`, which awaits a started thing, remembers it and
 * hands it back; everything kept is closed after each test.
 */
export function closedAfterEach() {
  const kept: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(kept.splice(0).map((k) => k.close()));
  });
  return async function keep<T extends { close(): Promise<void> }>(started: Promise<T>): Promise<T> {
    const k = await started;
    kept.push(k);
    return k;
  };
}

/** Closes each of `things` in order, one after the other, skipping those never started (undefined). */
export async function closeInOrder(...things: ({ close(): Promise<unknown> } | undefined)[]) {
  for (const t of things) await t?.close();
}
