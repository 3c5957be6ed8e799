/**
 * `hearth import memory-mcp <db>`: copies a memory-mcp (the seed's Python server) SQLite file into
 * Hearth, table by table, keeping ids' meaning (supersession chains, relation validity, composite
 * readings and their parts, closed sessions, promoted working-memory tasks) and timestamps.
 *
 * - Every row is checked by the schema of the door that takes it in Hearth (memory-mcp/rows.ts) and
 *   written by its tier's writer where one exists (memory-mcp/tables.ts); a row that fails is skipped
 *   and reported in one line by table and source id, each in its own savepoint (nothing half-written).
 * - Idempotent: `import_map` (migration 008) records every copied row under a fingerprint of the
 *   row itself (its id and the fields that never change there), not of the database: two different
 *   databases that share a first row are two sources, and a second run over the same one copies only
 *   rows that are new in it, never resurrecting one deleted in Hearth since.
 * - Entities merge by name (case-insensitive): an existing Hearth entity keeps its type and meta.
 * - Vectors are not copied (another model made them); memories arrive `pending` and are embedded
 *   with the configured embedder after the copy commits (`reembed` finishes the job if it fails).
 * - Rollups are rebuilt from the copied raw readings in HEARTH_TZ (the seed's buckets are UTC with
 *   weeks starting on Thursdays); `config` (it may hold the seed's API token) is never copied.
 * See docs/import-memory-mcp.md for every mapping.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Clock } from '../lib/clock.js';
import { HubError, invalid, unavailable } from '../lib/errors.js';
import type { AuditRepo } from '../tiers/audit/audit.repo.js';
import type { EntitiesRepo } from '../tiers/entities/entities.repo.js';
import type { MemoryService } from '../tiers/memory/memory.service.js';
import type { RelationsService } from '../tiers/memory/relations.service.js';
import type { ScheduleService } from '../tiers/schedule/schedule.service.js';
import type { ImportMap } from '../tiers/imports/import-map.repo.js';
import { openSource, type SourceReader } from './memory-mcp/source.reader.js';
import type { TimeseriesService } from '../tiers/timeseries/timeseries.service.js';
import type { Row } from './memory-mcp/rows.js';
import { copyTables, type ImportWriters, MCP_TABLES, type McpTable } from './memory-mcp/tables.js';

export { MCP_TABLES, type McpTable };

/** Per table: rows in the source, copied now, copied by an earlier run, skipped (with a reason in `warnings`). */
export interface TableCount {
  source: number;
  imported: number;
  already: number;
  skipped: number;
}

export interface ImporterDeps {
  /** The ledger of copied rows, and the transaction every write runs in (tiers/imports/import-map.repo.ts). */
  map: ImportMap;
  /** The tiers' import writers for the tables without a door-level writer that keeps original times. */
  writers: ImportWriters;
  clock: Clock;
  audit: AuditRepo;
  entities: EntitiesRepo;
  memory: MemoryService;
  relations: RelationsService;
  timeseries: TimeseriesService;
  schedule: ScheduleService;
  /** Rolls up new readings (services.timeseries.rollup). */
  rollup: () => unknown;
}

/**
 * The fields of a source row that never change there once written: with its table and id they
 * identify the row across runs (memory-mcp updates access counts, confidence, `superseded_by`,
 * `last_confirmed_ts` in place, so those are left out).
 */
const IDENTITY: Record<McpTable, string[]> = {
  entities: ['name', 'created'],
  memories: ['entity_id', 'fact', 'created'],
  relations: ['entity_a', 'entity_b', 'rel_type', 'created'],
  readings: ['entity_id', 'metric', 'ts', 'value_num', 'value_cat', 'value_json'],
  schedule_events: ['entity_id', 'title', 'start_ts', 'created'],
  sessions: ['entity_id', 'started_at'],
  session_turns: ['session_id', 'role', 'content', 'ts'],
  working_memory_tasks: ['name', 'created'],
  working_memory_slots: ['task_id', 'key', 'created'],
  intentions: ['trigger_text', 'action_text', 'created'],
  locations: ['entity_id', 'container_name', 'created'],
  promoted_patterns: ['entity_id', 'metric', 'pattern_key', 'detected'],
};
const fingerprint = (table: McpTable, r: Row) =>
  `memory-mcp:${createHash('sha256')
    .update(JSON.stringify([table, r.id, ...IDENTITY[table].map((f) => r[f] ?? null)]))
    .digest('hex')
    .slice(0, 20)}`;
/** Earlier Hearth named a whole database by its first entity row; rows recorded that way still count as imported. */
const legacySource = (src: SourceReader) => {
  const first = src.firstEntity();
  return `memory-mcp:${createHash('sha256')
    .update(JSON.stringify(first ?? {}))
    .digest('hex')
    .slice(0, 16)}`;
};
const MAX_WARNINGS = 200;

/** Rows written in one transaction (a savepoint of the run's): a refused one redoes its chunk row by row. */
const CHUNK = 512;
/** What happened to one source row. */
type Outcome = { r: Row; id?: number; already?: boolean; why?: string };

export function createMemoryMcpImporter(deps: ImporterDeps) {
  const { map: ledger } = deps;
  const cache = deps.timeseries.repo; // the time-series writer's id caches, undone with a rolled-back chunk

  function copy(src: SourceReader) {
    const counts = Object.fromEntries(
      MCP_TABLES.map((t) => [t, { source: 0, imported: 0, already: 0, skipped: 0 }]),
    ) as Record<McpTable, TableCount>;
    const warnings: string[] = [];
    const ids = new Map<McpTable, Map<unknown, number>>(MCP_TABLES.map((t) => [t, new Map()]));
    const legacy = legacySource(src);
    const hasLegacy = ledger.has(legacy);
    const map = (t: McpTable, id: unknown) => (id === null || id === undefined ? undefined : ids.get(t)!.get(id));

    /** One row: already copied, copied now (its id, recorded in the ledger), or refused before writing (why). */
    const step = (table: McpTable, r: Row, write: (r: Row) => number | string): Outcome => {
      const key = fingerprint(table, r);
      const done = ledger.get(key, table, r.id) ?? (hasLegacy ? ledger.get(legacy, table, r.id) : undefined);
      if (done !== undefined) {
        ids.get(table)!.set(r.id, done);
        return { r, id: done, already: true };
      }
      const id = write(r);
      if (typeof id === 'string') return { r, why: id };
      ledger.put(key, table, r.id, id);
      ids.get(table)!.set(r.id, id); // later rows of the chunk may name it
      return { r, id };
    };
    /** A row alone in its savepoint: a refusal after a partial write leaves nothing behind. */
    const alone = (table: McpTable, r: Row, write: (r: Row) => number | string): Outcome => {
      const mark = cache.mark();
      try {
        return ledger.atomic(() => {
          const o = step(table, r, write);
          if (o.why !== undefined) throw new Skip(o.why);
          return o;
        });
      } catch (e) {
        cache.undo(mark);
        ids.get(table)!.delete(r.id);
        if (e instanceof Skip || e instanceof HubError) return { r, why: e.message };
        if ((e as Error).name === 'SqliteError') return { r, why: `not stored (${(e as Error).message})` };
        throw e;
      }
    };
    /**
     * A chunk of rows in one savepoint (the writers refuse a bad row before writing, so a refusal
     * costs nothing); a throw rolls the chunk back, and it is redone one row per savepoint so only
     * the bad row is lost.
     */
    const chunk = (table: McpTable, rows: Row[], write: (r: Row) => number | string) => {
      const mark = cache.mark();
      let out: Outcome[];
      try {
        out = ledger.atomic(() => rows.map((r) => step(table, r, write)));
      } catch (e) {
        if (!(e instanceof HubError) && (e as Error).name !== 'SqliteError') throw e;
        cache.undo(mark);
        for (const r of rows) ids.get(table)!.delete(r.id);
        out = rows.map((r) => alone(table, r, write));
      }
      cache.commit(); // keeps the caches' undo log short; a failed run invalidates them
      const c = counts[table];
      for (const o of out) {
        c.source++;
        if (o.why !== undefined) {
          c.skipped++;
          if (warnings.length < MAX_WARNINGS) warnings.push(`${table} ${o.r.id}: ${o.why}`);
        } else if (o.already) c.already++;
        else c.imported++;
      }
    };
    const each = (table: McpTable, rows: Iterable<Row>, write: (r: Row) => number | string) => {
      let batch: Row[] = [];
      for (const r of rows) {
        batch.push(r);
        if (batch.length < CHUNK) continue;
        chunk(table, batch, write);
        batch = [];
      }
      if (batch.length) chunk(table, batch, write);
    };
    copyTables(deps, src, each, map);
    return { counts, warnings };
  }

  return {
    /** Copies what is new in the memory-mcp file at `path`; `dryRun` checks every row and counts, writing nothing. */
    async run(path: string, opts: { dryRun?: boolean } = {}) {
      if (!existsSync(path)) throw invalid(`db: no file at ${path}`);
      const src = openSource(path);
      try {
        const dryRun = Boolean(opts.dryRun);
        let out: ReturnType<typeof copy>;
        try {
          // One transaction: an import that stops half-way (disk full, a damaged source) leaves nothing.
          // A dry run writes every row exactly as a real one would, then rolls it all back.
          out = ledger.atomic(() => {
            deps.timeseries.repo.begin(); // drops cached ids another process may have made stale
            const r = copy(src);
            if (dryRun) throw new DryRun(r);
            const imported = Object.fromEntries(
              Object.entries(r.counts)
                .filter(([, c]) => c.imported)
                .map(([t, c]) => [t, c.imported]),
            );
            if (!dryRun && Object.keys(imported).length)
              deps.audit.record('import', 'import.memory-mcp', path, null, { path, counts: imported });
            return r;
          });
        } catch (e) {
          deps.timeseries.repo.invalidate(); // a rolled-back run leaves no ids behind in the caches
          if (e instanceof DryRun) out = e.result;
          else if (e instanceof HubError) throw e;
          else
            throw unavailable(
              `import memory-mcp: stopped at an error and imported nothing (${(e as Error).message.split('\n')[0]}); fix it and run it again`,
            );
        }
        const { counts, warnings } = out;
        const imported = Object.values(counts).reduce((n, c) => n + c.imported, 0);
        let embedded = 0;
        if (!dryRun && imported) {
          try {
            await deps.rollup();
          } catch (e) {
            warnings.push(`rollups: ${(e as Error).message}; the scheduler rolls them up later`);
          }
          for (;;) {
            const r = await deps.memory
              .embedPending(256)
              .catch(
                (e: Error) => (
                  warnings.push(`embedding: ${e.message}; run hearth reembed`), { embedded: 0, remaining: 0 }
                ),
              );
            embedded += r.embedded;
            if (!r.embedded || !r.remaining) break;
          }
        }
        return {
          ...summary(path, dryRun, counts, warnings, imported, embedded),
          dry_run: dryRun,
          imported,
          embedded,
          counts,
          warnings,
        };
      } finally {
        src.close();
      }
    },
  };
}
export type MemoryMcpImporter = ReturnType<typeof createMemoryMcpImporter>;

/** Thrown out of a row's savepoint with the reason it is skipped, rolling back what it wrote. */
class Skip extends Error {}

/** Thrown out of a dry run's transaction: every row was written only to be checked, then rolled back. */
class DryRun extends Error {
  constructor(readonly result: { counts: Record<McpTable, TableCount>; warnings: string[] }) {
    super('dry run');
  }
}

/** The summary: per table what was copied, what an earlier run copied, what was skipped and why. */
function summary(
  path: string,
  dryRun: boolean,
  counts: Record<McpTable, TableCount>,
  warnings: string[],
  imported: number,
  embedded: number,
) {
  const lines = MCP_TABLES.map((t) => {
    const c = counts[t];
    return `${t}: ${c.source} in source, ${c.imported} ${dryRun ? 'to import' : 'imported'}, ${c.already} already imported${c.skipped ? `, ${c.skipped} skipped` : ''}`;
  });
  const already = Object.values(counts).reduce((n, c) => n + c.already, 0);
  const skipped = Object.values(counts).reduce((n, c) => n + c.skipped, 0);
  const notes = [
    ...(already
      ? [
          `${already} rows already imported: an earlier run copied these same rows (rows deleted in Hearth since stay deleted)`,
        ]
      : []),
    ...(skipped
      ? [
          `${skipped} rows skipped, one line each (table, source id, reason)${skipped > warnings.length ? `; the first ${warnings.length} shown` : ''}:`,
          ...warnings.map((w) => `  ${w}`),
        ]
      : []),
  ];
  const result = `${dryRun ? 'Dry run: would import' : 'Imported'} ${imported} rows from ${path}${dryRun ? '' : ` (${embedded} memories embedded)`}\n${[...lines, ...notes].join('\n')}`;
  return { result };
}
