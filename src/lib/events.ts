/**
 * In-process domain events, typed by an event map (name → payload): `createEvents<HubEvents>()` in the
 * wiring (src/services/events.ts holds the hub's map). A failing listener is logged by name and never
 * breaks the write that emitted the event. lib knows no tier: the map is the caller's.
 */
export function createEvents<M extends object>(log: (msg: string) => void = (m) => console.error(m)) {
  type Listener<K extends keyof M> = (payload: M[K]) => void;
  const listeners = new Map<keyof M, Set<Listener<never>>>();
  return {
    on<K extends keyof M>(name: K, fn: Listener<K>): () => void {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(fn as Listener<never>);
      return () => listeners.get(name)?.delete(fn as Listener<never>);
    },
    emit<K extends keyof M>(name: K, payload: M[K]): void {
      for (const fn of listeners.get(name) ?? []) {
        try {
          (fn as Listener<K>)(payload);
        } catch (e) {
          log(`event listener for ${String(name)} failed: ${(e as Error).message}`);
        }
      }
    },
  };
}
export type EventBus<M extends object> = ReturnType<typeof createEvents<M>>;
