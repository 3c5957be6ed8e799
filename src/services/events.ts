/**
 * The hub's events and their payloads. The MQTT door publishes the first three under
 * `hearth/events/<name>`; the admin page's live stream listens to `readings_committed`.
 *
 * `entities_changed` is the one identity signal: a rename, merge, alias change or delete changes what
 * a name means, and every name-keyed cache listens to it (the time series' entity/series ids, the MQTT
 * bridge's learned units, the ask tier's subject index).
 */
import type { PatternPromoted } from '../patterns/engine.js';
import type { TriggeredIntention } from '../tiers/prospective/prospective.schemas.js';
import type { PreparedReading, WriteResult } from '../tiers/timeseries/readings.repo.js';
import { createEvents, type EventBus } from '../lib/events.js';

export interface HubEvents {
  memory_added: { id: number; entity_name: string; fact: string; category: string; action: string };
  pattern_promoted: PatternPromoted;
  intention_triggered: TriggeredIntention;
  readings_committed: { items: PreparedReading[]; results: WriteResult[] };
  entities_changed: {
    /** `entity`: renamed, merged, retyped or deleted through entity management (manage.service.ts). */
    change: 'rename' | 'alias' | 'delete' | 'entity';
    /** The entity's name before the change, when one entity changed and it is known. */
    entity_name?: string;
  };
}
export type HubEventName = keyof HubEvents;
export type Events = EventBus<HubEvents>;
export const createHubEvents = (log?: (msg: string) => void): Events => createEvents<HubEvents>(log);
