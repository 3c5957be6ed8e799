/**
 * The one way in for readings (issue #27): every door — POST /record and /record/bulk, line protocol
 * (/write, /api/v2/write), the MQTT bridge — hands its raw items to `ingest`, which checks each with
 * the shared schema (RecordInput: names checked once, there), prepares it (time window, epoch ms)
 * and submits the valid ones to the ingest writer, whose promise resolves once they are committed.
 * One result per item, in order: what each door reports (HTTP item results, /write's problems, the
 * bridge's per-topic counts and log) is built from these. Only a database failure rejects.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { Clock } from '../../lib/clock.js';
import { invalid, isHubError } from '../../lib/errors.js';
import { toEpoch } from '../../lib/schema.js';
import { check } from '../../lib/validation.js';
import type { IngestWriter } from './ingest.js';
import type { PreparedReading, WriteResult } from './readings.repo.js';
import { RecordInput } from './timeseries.schemas.js';

const DAY = 86_400;
/** Sensors with a wrong clock should not write into next year; a day of skew is tolerated. */
export const MAX_FUTURE_S = DAY;
/** Items checked and prepared between two turns of the event loop (a line may hold 1,000 fields). */
const ITEMS_PER_SLICE = 500;

export type Dedupe = PreparedReading['dedupe'];

export interface IngestOptions {
  /**
   * Skip an item already stored (a retained MQTT message replayed on subscribe): `exact` = same ts
   * and value, `latest` = equals the latest stored value. One mode for every item, or one per item.
   */
  dedupe?: Dedupe | ((i: number) => Dedupe);
  /**
   * Names the items in messages. A string is the root for every item ("payload", "line": messages read
   * `entity_name: must not be empty`); a function gives each item's path (`readings.3`), which then
   * leads every message of that item (`readings.3.entity_name: …`, `readings.3.ts: … in the future`).
   */
  label?: string | ((i: number) => string);
  /** Readings committed per transaction, with a turn of the event loop between (default: all in one). */
  chunk?: number;
}

/** One item's outcome: stored (or skipped as already stored), or refused with the field and reason. */
export type IngestResult =
  | Extract<WriteResult, { ok: true }>
  | {
      ok: false;
      error: string;
      message: string;
      /** `check`: refused before storage (schema, time window); `write`: refused by the store (type conflict…). */
      stage: 'check' | 'write';
    };

export function createIntake(deps: { clock: Clock; retentionDays: number; writer: IngestWriter }) {
  const { clock, retentionDays, writer } = deps;

  /** Normalises a validated record into a storable reading, or throws naming the field. */
  function prepare(input: RecordInput, dedupe?: Dedupe): PreparedReading {
    const now = clock.now();
    const ts = toEpoch(input.ts) ?? now;
    if (ts > now + MAX_FUTURE_S) throw invalid(`ts: ${new Date(ts * 1000).toISOString()} is in the future`);
    if (ts < now - retentionDays * DAY) {
      throw invalid(
        `ts: older than the ${retentionDays}-day retention window (RETENTION_DAYS); raw readings that old are not kept`,
      );
    }
    const { entity_name, entity_type, metric, value, unit, source } = input;
    return { entity_name, entity_type, metric, value, unit, source, ts_ms: Math.round(ts * 1000), dedupe };
  }

  /** Check → prepare → submit. Valid items are committed before this resolves; refused ones say why. */
  async function ingest(items: readonly unknown[], opts: IngestOptions = {}): Promise<IngestResult[]> {
    const { label = 'input', dedupe, chunk = Infinity } = opts;
    const pathOf = typeof label === 'function' ? label : undefined;
    const prefix = (i: number) => (pathOf ? `${pathOf(i)}.` : '');
    const results: IngestResult[] = new Array(items.length);
    const ready: PreparedReading[] = [];
    const at: number[] = [];
    for (let i = 0; i < items.length; i++) {
      if (i && i % ITEMS_PER_SLICE === 0) await turn(); // let other requests and MQTT acks in
      const path = pathOf?.(i);
      const parsed = check(RecordInput, items[i], path ?? (label as string), path === undefined ? '' : `${path}.`);
      if (!parsed.success) {
        results[i] = { ok: false, error: 'invalid', message: parsed.message, stage: 'check' };
        continue;
      }
      try {
        ready.push(prepare(parsed.data, typeof dedupe === 'function' ? dedupe(i) : dedupe));
        at.push(i);
      } catch (e) {
        const error = isHubError(e) ? e.code : 'invalid';
        results[i] = { ok: false, error, message: `${prefix(i)}${(e as Error).message}`, stage: 'check' };
      }
    }
    for (let from = 0; from < ready.length; from += chunk) {
      if (from) await turn();
      const written = await writer.submit(
        from === 0 && chunk >= ready.length ? ready : ready.slice(from, from + chunk),
      );
      written.forEach((r, j) => {
        const i = at[from + j];
        results[i] = r.ok ? r : { ok: false, error: r.error, message: `${prefix(i)}${r.message}`, stage: 'write' };
      });
    }
    return results;
  }

  return { prepare, ingest };
}
