/**
 * The MQTT bridge: topic → mapping → shared schema → service. Readings of one message are
 * committed together before the promise resolves (the broker acknowledges after it). A payload it
 * cannot parse is counted per topic and logged at most once a minute per topic; it never throws for
 * bad input and never blocks other topics (SPEC §7).
 */
import type { Services } from '../services.js';
import { RememberInput } from '../tiers/memory/memory.schemas.js';
import { LocateInput } from '../tiers/spatial/spatial.schemas.js';
import { HaNamesInput } from '../tiers/entities/aliases.schemas.js';
import type { BridgeStats } from '../lib/bridge-stats.js';
import { nameKey } from '../lib/names.js';
import type { Dedupe } from '../tiers/timeseries/intake.js';
import { check } from '../lib/validation.js';
import { capName, MAX_TRACKED_NAMES } from '../lib/tracked-names.js';
import { fromStorageError, isHubError } from '../lib/errors.js';
import { ParseError, type Ingest, type MappingContext } from './mappings/types.js';
import type { MappingSet } from './mappings/index.js';

export type { BridgeStats };

const LOG_EVERY_MS = 60_000;
/** Learned units kept (and resolved names cached): a house has hundreds of series, not tens of thousands. */
export const MAX_UNITS = 10_000;

/** A Map that forgets its oldest entry past `max` (insertion order). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.max) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}
/** Whether two names are one entity (`nameKey`, the one identity rule). */
const sameName = (a: string | undefined, b: string) => a !== undefined && nameKey(a) === nameKey(b);

export function createBridge(deps: {
  services: Services;
  mappings: MappingSet;
  timeZone: string;
  log: (msg: string) => void;
}) {
  const { services, mappings, log } = deps;
  /**
   * Learned units (HA discovery, `…/unit` topics), by the name a message used (`nameKey`) and metric,
   * and what a reading's unit resolved to. Both bounded. A learned unit is needed only until the
   * series stores it: a reading without a unit keeps its series' stored unit (readings.repo.ts), so
   * what a restart forgets is only the units of series that have no reading yet.
   */
  const units = new BoundedMap<string, string>(MAX_UNITS);
  const resolved = new BoundedMap<string, string | null>(MAX_UNITS);
  const unitKey = (entity: string, metric: string) => `${nameKey(entity)}\u0000${metric}`;
  const learn = (entity: string, metric: string, unit: string) => {
    units.set(unitKey(entity, metric), unit);
    resolved.clear();
  };
  // A rename, merge, alias or delete changes which names are one entity: resolve again.
  services.events.on('entities_changed', () => resolved.clear());
  /**
   * The unit learned for this entity under any of its names: HA teaches `person.anna`'s, a reading
   * may arrive as "Anna" (an alias). Resolved once per name and metric (two reads), then cached until
   * a unit is learned or `entities_changed` says what names mean has changed.
   */
  function unitOf(entity: string, metric: string): string | undefined {
    const key = unitKey(entity, metric);
    const direct = units.get(key);
    if (direct !== undefined || !units.size) return direct;
    const known = resolved.get(key);
    if (known !== undefined) return known ?? undefined;
    const e = services.entities.find(entity);
    let found: string | null = null;
    for (const name of e ? [e.name, ...services.entities.aliases(e.id).map((a) => a.alias)] : []) {
      const u = units.get(unitKey(name, metric));
      if (u !== undefined) {
        found = u;
        break;
      }
    }
    resolved.set(key, found);
    return found ?? undefined;
  }
  const ctx: MappingContext = { timeZone: deps.timeZone, units: { get: unitOf } };
  const stats: BridgeStats = {
    received: 0,
    ingested: 0,
    ignored: 0,
    unparseable: 0,
    rejected: 0,
    errors_by_topic: Object.create(null) as Record<string, number>,
  }; // topics are client-chosen: no prototype
  const lastLogged = new Map<string, number>();

  function fail(fullTopic: string, kind: 'unparseable' | 'rejected', reason: string): void {
    stats[kind]++;
    const counts = stats.errors_by_topic;
    // Topics are client-chosen: capped in length, and the oldest forgotten past MAX_TRACKED_NAMES.
    const topic = capName(fullTopic);
    if (!(topic in counts) && Object.keys(counts).length >= MAX_TRACKED_NAMES) delete counts[Object.keys(counts)[0]];
    counts[topic] = (counts[topic] ?? 0) + 1;
    const now = Date.now();
    if (now - (lastLogged.get(topic) ?? 0) >= LOG_EVERY_MS) {
      if (lastLogged.size >= MAX_TRACKED_NAMES) lastLogged.clear();
      lastLogged.set(topic, now);
      log(`mqtt: ${kind} message on ${topic} (${counts[topic]} so far): ${reason.slice(0, 200)}`);
    }
  }

  /**
   * Runs one service call for a message item. A refusal the sender caused (invalid, conflict…) is
   * counted like a bad payload; only a storage failure propagates, so the message is not acknowledged.
   */
  async function attempt(topic: string, call: () => unknown): Promise<boolean> {
    try {
      await call();
      return true;
    } catch (e) {
      const storage = fromStorageError(e);
      if (storage || (isHubError(e) && e.code === 'unavailable')) throw storage ?? e;
      // A bug must not make the broker redeliver the same message forever: count it and move on.
      fail(topic, 'rejected', isHubError(e) ? e.message : `internal error: ${(e as Error).message}`);
      return false;
    }
  }

  const recordFail = fail;
  /** Applies a message's items; false when every item was refused (the broker then does not retain it). */
  async function apply(topic: string, items: Ingest[], retain: boolean): Promise<boolean> {
    let failed = 0;
    const fail = (t: string, kind: 'unparseable' | 'rejected', reason: string) => (
      failed++, recordFail(t, kind, reason)
    );
    // Readings go to the one ingest entry point together (checked there, committed before it resolves).
    const readings: unknown[] = [];
    const dedupe: Dedupe[] = [];
    for (const item of items) {
      if (item.kind === 'reading') {
        const { kind: _, ...reading } = item;
        readings.push({ ...reading, unit: item.unit ?? ctx.units.get(item.entity_name, item.metric) });
        // A retained message is replayed on every (re)subscribe: skip it when already stored.
        dedupe.push(retain ? (item.ts === undefined ? 'latest' : 'exact') : undefined);
      } else if (item.kind === 'remember') {
        const { kind: _, ...fact } = item;
        const parsed = check(RememberInput, fact, 'payload');
        if (!parsed.success) fail(topic, 'rejected', parsed.message);
        else if (!retain || !(await known(parsed.data.entity_name, parsed.data.fact))) {
          if (await attempt(topic, () => services.memory.remember(parsed.data, 'mqtt'))) stats.ingested++;
        }
      } else if (item.kind === 'locate') {
        const { kind: _, ...place } = item;
        const parsed = check(LocateInput, place, 'payload');
        if (!parsed.success) fail(topic, 'rejected', parsed.message);
        else if (
          retain &&
          item.ts === undefined &&
          sameName(services.spatial.current(parsed.data.entity_name)?.container_name, parsed.data.container_name)
        ) {
          stats.ignored++; // a retained replay without a time must not re-confirm on every reconnect
        } else {
          if (await attempt(topic, () => services.spatial.locate(parsed.data, 'mqtt'))) stats.ingested++;
        }
      } else if (item.kind === 'unit') {
        learn(item.entity_name, item.metric, item.unit);
      } else if (item.kind === 'discovery') {
        if (item.entity_name && item.metric && item.unit) learn(item.entity_name, item.metric, item.unit);
      } else if (item.kind === 'alias') {
        const parsed = check(
          HaNamesInput,
          { names: [{ entity_id: item.ha_entity_id, friendly_name: item.friendly_name }] },
          'payload',
        );
        if (!parsed.success) fail(topic, 'rejected', parsed.message);
        else if (await attempt(topic, () => services.aliases.fromHomeAssistant(parsed.data, 'mqtt'))) stats.ingested++;
      } else {
        stats.ignored++;
      }
    }
    if (readings.length) {
      for (const r of await services.timeseries.ingest(readings, { label: 'payload', dedupe: (i) => dedupe[i] })) {
        if (r.ok) stats.ingested++;
        else fail(topic, 'rejected', r.message);
      }
    }
    return failed < items.length;
  }

  /** Whether a retained `remember` was already stored (replays must not re-confirm it forever). */
  async function known(entity: string, fact: string): Promise<boolean> {
    return services.memory.knows(entity, fact);
  }

  return {
    stats,
    units,
    /** Every filter the bridge needs subscribed (external broker mode). */
    filters: () => mappings.filters(),
    /**
     * Handles one message; rejects only when the database refused the write (then nothing may be
     * acknowledged). Resolves false when the message was refused (unparseable, or every item rejected).
     */
    async handle(topic: string, payload: Buffer, opts: { retain?: boolean } = {}): Promise<boolean> {
      stats.received++;
      const mapping = mappings.route(topic);
      if (!mapping) return (stats.ignored++, true);
      let items: Ingest[];
      try {
        items = mapping.parse(topic, payload, ctx);
      } catch (e) {
        fail(
          topic,
          'unparseable',
          e instanceof ParseError ? e.message : `mapping ${mapping.name} failed: ${(e as Error).message}`,
        );
        return false;
      }
      if (!items.length) return (stats.ignored++, true);
      try {
        return await apply(topic, items, Boolean(opts.retain));
      } catch (e) {
        // The database refused the batch (disk full, I/O error): nothing was acknowledged as stored.
        fail(topic, 'rejected', (e as Error).message);
        throw e;
      }
    },
  };
}
export type Bridge = ReturnType<typeof createBridge>;
