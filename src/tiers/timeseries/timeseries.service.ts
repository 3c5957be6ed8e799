/**
 * Tier 2 — time series: record (single, bulk, line protocol and the MQTT bridge, all through
 * `ingest`, committed before the answer), query_stream (raw or rollups), latest readings for
 * profiles, the ingest counters for /health and /metrics, and `rollup`, the one way to ask for rollups.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError, invalid, notFound } from '../../lib/errors.js';
import { toEpoch } from '../../lib/schema.js';
import { createIngestWriter } from './ingest.js';
import { createIntake, MAX_FUTURE_S } from './intake.js';
import {
  type LineReading,
  lineProtocolChunks,
  MAX_BYTES,
  MAX_READINGS,
  type Precision,
  tooLarge,
} from './line-protocol.js';
import { createReadingsRepo, type PreparedReading, type WriteResult } from './readings.repo.js';
import type { RollupResult, Rollups } from './rollup.js';

/** New readings rolled up per slice of a whole-house pass (`rollupAll`). */
export const ROLLUP_SLICE = 50_000;
import { createSeriesIndex } from './series-index.js';
import { createTimeseriesReader } from './timeseries.reader.js';
import { createWindowReads } from './window.reader.js';
import type { QueryStreamInput, RecordBulkInput, RecordInput } from './timeseries.schemas.js';

/** Line-protocol lines parsed between two turns of the event loop (≈ 10 ms on a Pi-class core). */
const LINES_PER_SLICE = 50;
/** Readings parsed between two turns, whatever the lines (a line may hold 1,000 fields). */
const POINTS_PER_SLICE = 500;
/** Readings of one large /write committed per transaction. */
const WRITE_CHUNK = 2000;

export interface TimeseriesDeps {
  db: Db;
  clock: Clock;
  retentionDays: number;
  flushMs?: number;
  /** The incremental hour/day/week rollups (rollup.ts), run through `rollup`. */
  rollups: Rollups;
  /** Called after each committed ingest batch (the admin UI's live stream listens through events). */
  onCommitted?: (items: PreparedReading[], results: WriteResult[]) => void;
}

export type { RollupRow } from './timeseries.reader.js';

export function createTimeseriesService(deps: TimeseriesDeps) {
  const { db, clock } = deps;
  const seriesIndex = createSeriesIndex(db);
  const repo = createReadingsRepo(db, clock, seriesIndex);
  const reader = createTimeseriesReader(db);
  let newSinceRollup = 0;
  // Readings another process (`hearth mcp`) committed count too: `PRAGMA data_version` moves with its commits.
  let versionAtRollup = repo.dataVersion();
  const writer = createIngestWriter(db, repo, {
    flushMs: deps.flushMs,
    onCommit: (items, results) => {
      newSinceRollup = 1;
      deps.onCommitted?.(items, results);
    },
  });
  const { ingest } = createIntake({ clock, retentionDays: deps.retentionDays, writer });

  /**
   * Brings the rollups of the given series up to date, at once (a query, trends, an ask about one
   * series: bounded by that series' new readings). A whole-house pass goes through `rollupAll`.
   */
  function rollup(seriesIds: number[]) {
    return deps.rollups.run({ seriesIds });
  }

  /**
   * The rollup lane: the one way to roll up the whole house (scheduler, prune, patterns, merges,
   * aliases, the importer). One pass at a time, in slices of ROLLUP_SLICE new readings with a turn of
   * the event loop between them, so a 1M-reading /write is ~20 slices of ~0.1 s instead of one
   * multi-second pass that holds every door. A caller that arrives while a pass is queued (not yet
   * started) shares it; one that arrives while a pass runs gets the next one, which sees its readings.
   */
  let lane: Promise<unknown> = Promise.resolve();
  let queued: Promise<RollupResult> | null = null;
  function rollupAll(): Promise<RollupResult> {
    if (queued) return queued;
    const pass = lane.then(async () => {
      queued = null;
      // Readings and bucket writes add up over the slices; series counts each series once.
      const total: RollupResult = { series: 0, buckets: 0, readings: 0 };
      const seen = new Set<number>();
      for (;;) {
        const r = deps.rollups.run({ maxReadings: ROLLUP_SLICE, seen });
        total.readings += r.readings;
        total.buckets += r.buckets;
        total.series = seen.size;
        if (!r.more) return total;
        await turn();
      }
    });
    queued = pass;
    lane = pass.catch(() => undefined);
    return pass;
  }

  const describe = (input: { entity_name: string; metric: string; value: unknown; unit?: string }) =>
    `Recorded ${input.entity_name} ${input.metric} = ${typeof input.value === 'object' ? JSON.stringify(input.value) : String(input.value)}${input.unit ? ` ${input.unit}` : ''}`;

  return {
    repo,
    writer,
    /** Bounded reads of one series' window (window.reader.ts), for answers about a time. */
    reads: createWindowReads(db),
    ingest,
    rollup,
    rollupAll,
    get dirty() {
      return newSinceRollup > 0 || repo.dataVersion() !== versionAtRollup;
    },
    markRolledUp() {
      newSinceRollup = 0;
      versionAtRollup = repo.dataVersion();
    },

    /** One reading (POST /record, the `record` tool); a refusal throws naming the field. */
    async record(input: RecordInput) {
      const [r] = await ingest([input]);
      if (!r.ok) throw new HubError(r.error as never, r.message);
      return { result: describe(input), id: r.id, value_type: r.value_type, children: r.children };
    },

    /** Valid items commit together; each item gets its own result. */
    async recordBulk(input: RecordBulkInput) {
      const results = await ingest(input.readings, { label: (i) => `readings.${i}` });
      const out = results.map((r) =>
        r.ok ? { ok: true as const, id: r.id } : { ok: false as const, error: r.error, message: r.message },
      );
      const inserted = out.filter((r) => r.ok).length;
      return {
        result: `Recorded ${inserted} of ${out.length} readings`,
        count: out.length,
        inserted,
        rejected: out.length - inserted,
        results: out,
      };
    },

    /**
     * InfluxDB line protocol (Telegraf, Home Assistant's InfluxDB integration): valid lines are
     * committed, bad ones reported. One request holds the event loop for one slice at a time
     * (issue #26 item 17): parsed at most LINES_PER_SLICE lines or POINTS_PER_SLICE readings between
     * two turns, then checked and committed by `ingest` in slices too, WRITE_CHUNK readings per
     * transaction, so /health and MQTT PUBACKs interleave with a large body. More than MAX_READINGS
     * readings is refused whole (413) before anything is stored. Every chunk is committed before the
     * answer; a body interrupted by a crash may be partly stored (as with InfluxDB).
     */
    async writeLines(body: string, precision: Precision) {
      // Split once: the size check and the parse read the same lines (a 10 MiB body is not split twice).
      const lines = typeof body === 'string' && body.length <= MAX_BYTES ? body.split('\n') : [];
      const whole = typeof body === 'string' ? tooLarge(body, lines) : undefined;
      if (whole)
        throw new HubError(
          'too_large',
          `body: ${whole}; nothing was stored. Send smaller batches (Telegraf: metric_batch_size)`,
        );
      const points: LineReading[] = [];
      /** Per parse slice: its line errors and the points it ended at (problems keep that order). */
      const slices: { errors: string[]; end: number }[] = [];
      for (const chunk of lineProtocolChunks(body, precision, clock.now(), LINES_PER_SLICE, POINTS_PER_SLICE, lines)) {
        points.push(...chunk.points);
        slices.push({ errors: chunk.errors.map((e) => `line ${e.line}: ${e.message}`), end: points.length });
        if (points.length > MAX_READINGS) {
          throw new HubError(
            'too_large',
            `body: more than ${MAX_READINGS} readings in one request; nothing was stored. Send smaller batches (Telegraf: metric_batch_size)`,
          );
        }
        await turn(); // let other requests and MQTT acks in
      }
      const items = points.map((p) => ({
        entity_name: p.entity_name,
        metric: p.metric,
        value: p.value,
        unit: p.unit,
        ts: p.ts,
        source: p.source,
        entity_type: p.entity_type,
      }));
      const results = await ingest(items, { label: 'line', chunk: WRITE_CHUNK });
      const problem = (i: number) =>
        `${points[i].entity_name} ${points[i].metric}: ${(results[i] as { message: string }).message}`;
      const refused = (i: number, stage: 'check' | 'write') =>
        !results[i].ok && (results[i] as { stage: string }).stage === stage;
      const problems: string[] = [];
      let from = 0;
      for (const { errors, end } of slices) {
        problems.push(...errors);
        for (let i = from; i < end; i++) if (refused(i, 'check')) problems.push(problem(i));
        from = end;
      }
      for (let i = 0; i < points.length; i++) if (refused(i, 'write')) problems.push(problem(i));
      return { written: results.filter((r) => r.ok).length, problems };
    },

    queryStream(input: QueryStreamInput) {
      const s = repo.seriesId(input.entity_name, input.metric);
      if (!s) throw notFound(`metric: no readings of ${input.metric} for ${input.entity_name}`);
      const start = toEpoch(input.start_ts) ?? 0;
      const end = toEpoch(input.end_ts) ?? clock.now() + MAX_FUTURE_S;
      if (end < start) throw invalid('end_ts: before start_ts');
      if (input.granularity === 'raw') {
        const rows = reader.raw(s.id, Math.round(start * 1000), Math.round(end * 1000), input.limit);
        const points = rows.reverse().map((r) => ({
          ts: r.ts_ms / 1000,
          value: r.value_json !== null ? JSON.parse(r.value_json) : (r.value_num ?? r.value_cat),
          unit: s.unit,
          source: r.source,
        }));
        return {
          result: `${points.length} ${input.metric} readings for ${s.entity_name}`,
          entity_name: s.entity_name,
          metric: input.metric,
          granularity: 'raw',
          unit: s.unit,
          value_type: s.value_type,
          points,
        };
      }
      rollup([s.id]);
      const rows = reader.buckets(s.id, input.granularity, start, end, input.limit);
      const points = rows.reverse().map((r) => ({
        bucket_ts: r.bucket_ts,
        count: r.count,
        avg: r.avg_num,
        min: r.min_num,
        max: r.max_num,
        p10: r.p10_num,
        p90: r.p90_num,
        mode: r.mode_cat,
      }));
      return {
        result: `${points.length} ${input.granularity} buckets of ${input.metric} for ${s.entity_name}`,
        entity_name: s.entity_name,
        metric: input.metric,
        granularity: input.granularity,
        unit: s.unit,
        value_type: s.value_type,
        points,
      };
    },

    /** Daily rollup rows of a series in [from, to) (for trends). */
    dailyRollups(seriesId: number, from: number, to: number) {
      return reader.daily(seriesId, from, to);
    },

    /** Hourly rollup rows of a series in [from, to) (for trends over a rolling window). */
    hourlyRollups(seriesId: number, from: number, to: number) {
      return reader.hourly(seriesId, from, to);
    },

    /**
     * Series whose entity name or metric shares words with a query ("how warm is the bedroom" →
     * bedroom/temperature), best first, with their latest value — for cross_query and context.
     */
    matchSeries(query: string, limit = 10) {
      // Indexed (series-index.ts): only the best-scored series pay for their name and latest reading.
      const out = [];
      for (const { id, score } of seriesIndex.match(query)) {
        if (out.length >= limit) break;
        const last = reader.latestOf(id);
        if (!last) continue; // a series without readings says nothing
        const r = reader.named(id);
        if (!r) continue; // forgotten meanwhile
        out.push({
          entity_name: r.entity_name,
          metric: r.metric,
          unit: r.unit,
          ts: last.ts_ms / 1000,
          score,
          value: last.value_json !== null ? JSON.parse(last.value_json) : (last.value_num ?? last.value_cat),
        });
      }
      return out;
    },

    /** Latest value of every metric of an entity (for profiles and context). */
    latest(entityId: number) {
      return reader.latestOfEntity(entityId).map((x) => ({
        metric: x.metric,
        value: x.value_json !== null ? JSON.parse(x.value_json) : (x.value_num ?? x.value_cat),
        unit: x.unit,
        ts: x.ts_ms / 1000,
      }));
    },
  };
}
export type TimeseriesService = ReturnType<typeof createTimeseriesService>;
