/**
 * In-process domain events (memory_added, pattern_promoted, intention_triggered). The MQTT bridge
 * publishes them under `hearth/events/<name>`. A failing listener is logged by name and never
 * breaks the write that emitted the event.
 */
export type EventName =
  | 'memory_added'
  | 'pattern_promoted'
  | 'intention_triggered'
  | 'entity_forgotten'
  | 'readings_committed'
  | 'aliases_changed';
type Listener = (payload: unknown) => void;

export function createEvents(log: (msg: string) => void = (m) => console.error(m)) {
  const listeners = new Map<EventName, Set<Listener>>();
  return {
    on(name: EventName, fn: Listener): () => void {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(fn);
      return () => listeners.get(name)?.delete(fn);
    },
    emit(name: EventName, payload: unknown): void {
      for (const fn of listeners.get(name) ?? []) {
        try {
          fn(payload);
        } catch (e) {
          log(`event listener for ${name} failed: ${(e as Error).message}`);
        }
      }
    },
  };
}
export type Events = ReturnType<typeof createEvents>;
