/**
 * `hearth import memory-mcp <db>`: copies a memory-mcp (the seed's Python server) SQLite file into
 * Hearth, table by table, keeping ids' meaning (supersession chains, relation validity, composite
 * readings and their parts, closed sessions, promoted working-memory tasks) and timestamps.
 *
 * - Idempotent: `import_map` (migration 008) records every copied row, so a second run copies only
 *   rows that are new in the source and never resurrects one deleted in Hearth since.
 * - Entities merge by name (case-insensitive): an existing Hearth entity keeps its type and meta.
 * - Vectors are not copied (another model made them); memories arrive `pending` and are embedded
 *   with the configured embedder after the copy commits (`reembed` finishes the job if it fails).
 * - Rollups are rebuilt from the copied raw readings in HEARTH_TZ (the seed's buckets are UTC with
 *   weeks starting on Thursdays); `config` (it may hold the seed's API token) is never copied.
 * See docs/import-memory-mcp.md for every mapping.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Db } from '../db/open.js';
import { invalid } from '../lib/errors.js';
import { nameKey, normaliseName } from '../lib/names.js';
import { entityIdByKey } from '../tiers/entities/entities.repo.js';
import type { AuditRepo } from '../tiers/audit/audit.repo.js';
import { CATEGORIES } from '../tiers/memory/memory.schemas.js';
import type { MemoryService } from '../tiers/memory/memory.service.js';
import { indexText, terms } from '../tiers/memory/text-match.js';
import { triggerTerms } from '../tiers/prospective/trigger-match.js';

/** Tables copied, in dependency order. */
export const MCP_TABLES = [
  'entities', 'memories', 'relations', 'readings', 'schedule_events', 'sessions', 'session_turns',
  'working_memory_tasks', 'working_memory_slots', 'intentions', 'locations', 'promoted_patterns',
] as const;
export type McpTable = (typeof MCP_TABLES)[number];

export interface TableCount { source: number; imported: number; already: number; skipped: number }
type Row = Record<string, any>;

export interface ImporterDeps {
  db: Db;
  audit: AuditRepo;
  memory: MemoryService;
  /** Rolls up new readings (services.rollups.run). */
  rollup: () => unknown;
}

const clamp01 = (x: unknown, d = 1) => (typeof x === 'number' && Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : d);
const json = (s: unknown, d = '{}') => {
  if (typeof s !== 'string') return d;
  try {
    const v = JSON.parse(s);
    return v && typeof v === 'object' && !Array.isArray(v) ? JSON.stringify(v) : d;
  } catch {
    return d;
  }
};

export function createMemoryMcpImporter(deps: ImporterDeps) {
  const { db } = deps;
  const mapGet = db.prepare('SELECT dst_id FROM import_map WHERE source = ? AND tbl = ? AND src_id = ?');
  const mapPut = db.prepare('INSERT INTO import_map (source, tbl, src_id, dst_id) VALUES (?, ?, ?, ?)');

  const hasTable = (src: Database.Database, table: string) => !!src.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
  /** Reads every row of a source table (absent in older memory-mcp versions → none). */
  function rowsOf(src: Database.Database, table: string): Row[] {
    return hasTable(src, table) ? (src.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all() as Row[]) : [];
  }
  /** The same, streamed: a year of readings need not sit in memory at once. */
  function* streamOf(src: Database.Database, table: string): Generator<Row> {
    if (hasTable(src, table)) yield* src.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).iterate() as Iterable<Row>;
  }

  function copy(src: Database.Database, source: string, dryRun: boolean) {
    const counts = Object.fromEntries(MCP_TABLES.map((t) => [t, { source: 0, imported: 0, already: 0, skipped: 0 }])) as Record<McpTable, TableCount>;
    const warnings: string[] = [];
    const map = (tbl: string, id: unknown): number | undefined =>
      id === null || id === undefined ? undefined : (mapGet.get(source, tbl, id) as { dst_id: number } | undefined)?.dst_id;
    /** Runs `insert` for each source row not imported yet; it returns the new id, or a skip reason. */
    const each = (table: McpTable, rows: Iterable<Row>, insert: (r: Row) => number | string) => {
      const c = counts[table];
      for (const r of rows) {
        c.source++;
        if (map(table, r.id) !== undefined) {
          c.already++;
          continue;
        }
        if (dryRun) {
          c.imported++;
          continue;
        }
        const out = insert(r);
        if (typeof out === 'string') {
          c.skipped++;
          if (warnings.length < 50) warnings.push(`${table} ${r.id}: ${out}`);
          continue;
        }
        mapPut.run(source, table, r.id, out);
        c.imported++;
      }
    };
    const P = (sql: string) => db.prepare(sql);
    const entityById = P('SELECT id, name FROM entities WHERE id = ?');
    const entityByKey = P(`SELECT ${entityIdByKey('@key')} AS id`);
    const ent = (id: unknown) => map('entities', id);

    each('entities', rowsOf(src, 'entities'), (r) => {
      // One identity rule with every other door (lib/names.ts): "Zoë" and "ZOË" are one entity.
      const name = normaliseName(String(r.name));
      const found = entityByKey.get({ key: nameKey(name) }) as { id: number | null };
      if (found.id !== null) return found.id;
      return Number(P('INSERT INTO entities (name, name_key, type, meta, created, updated) VALUES (?, ?, ?, ?, ?, ?)')
        .run(name, nameKey(name), r.type || 'unknown', json(r.meta), r.created, r.updated ?? r.created).lastInsertRowid);
    });

    const memRows = rowsOf(src, 'memories');
    const insertMemory = P(`INSERT INTO memories (entity_id, fact, category, confidence, source, source_trust, fact_key, created, updated,
        last_confirmed, last_accessed, access_count, valid_from, status, embed_state)
      VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, 'active', 'pending')`);
    const ftsInsert = P('INSERT INTO memory_fts (rowid, terms) VALUES (?, ?)');
    each('memories', memRows, (r) => {
      const e = entityById.get(ent(r.entity_id) ?? -1) as { id: number; name: string } | undefined;
      if (!e) return 'its entity was not imported';
      const category = (CATEGORIES as readonly string[]).includes(r.category) ? r.category : 'general';
      if (category !== r.category) warnings.push(`memories ${r.id}: category "${r.category}" stored as general`);
      const trust = Number.isInteger(r.source_trust) ? Math.min(5, Math.max(1, r.source_trust)) : 5;
      const id = Number(insertMemory.run(e.id, String(r.fact), category, clamp01(r.confidence), r.source || 'memory-mcp', trust,
        r.created, r.updated ?? r.created, r.updated ?? r.created, r.last_accessed ?? null, r.access_count ?? 0, r.created).lastInsertRowid);
      ftsInsert.run(id, terms(indexText(e.name, String(r.fact))).join(' '));
      return id;
    });
    // Second pass: the chain. The newer row's creation is when the older one stopped being valid.
    const supersede = P("UPDATE memories SET status = 'superseded', superseded_by = ?, valid_until = max(valid_from, (SELECT created FROM memories WHERE id = ?)) WHERE id = ? AND superseded_by IS NULL");
    if (!dryRun) for (const r of memRows) {
      const older = map('memories', r.id);
      const newer = map('memories', r.superseded_by);
      if (older !== undefined && newer !== undefined) supersede.run(newer, newer, older);
    }

    const currentRel = P('SELECT id FROM relations WHERE entity_a = ? AND entity_b = ? AND rel_type = ? AND valid_until IS NULL');
    each('relations', rowsOf(src, 'relations'), (r) => {
      const a = ent(r.entity_a), b = ent(r.entity_b);
      if (a === undefined || b === undefined) return 'an entity was not imported';
      const same = r.valid_until == null ? (currentRel.get(a, b, r.rel_type) as { id: number } | undefined) : undefined;
      if (same) return same.id;
      return Number(P('INSERT INTO relations (entity_a, entity_b, rel_type, meta, created, valid_from, valid_until) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(a, b, String(r.rel_type), json(r.meta), r.created, r.valid_from ?? r.created, r.valid_until ?? null).lastInsertRowid);
    });

    copyReadings(src, each, ent);

    each('schedule_events', rowsOf(src, 'schedule_events'), (r) => {
      const e = ent(r.entity_id);
      if (e === undefined) return 'its entity was not imported';
      const rec = !r.recurrence || r.recurrence === 'none' ? null : String(r.recurrence);
      return Number(P('INSERT INTO schedule_events (entity_id, title, start_ts, end_ts, recurrence, meta, created) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(e, String(r.title), r.start_ts, r.end_ts ?? null, rec, json(r.meta), r.created).lastInsertRowid);
    });

    // Sessions arrive open so their turns can be appended (a trigger refuses turns of closed ones), then close.
    const sessions = rowsOf(src, 'sessions');
    each('sessions', sessions, (r) => {
      const e = ent(r.entity_id);
      if (e === undefined) return 'its entity was not imported';
      const meta = JSON.parse(json(r.meta)) as Record<string, unknown>;
      if (r.consolidated) meta.consolidated = true;
      return Number(P("INSERT INTO sessions (entity_id, started_at, ended_at, summary, meta, status) VALUES (?, ?, NULL, ?, ?, 'open')")
        .run(e, r.started_at, r.summary ?? null, JSON.stringify(meta)).lastInsertRowid);
    });
    const roles = new Set(['user', 'assistant', 'system']);
    each('session_turns', rowsOf(src, 'session_turns'), (r) => {
      const s = map('sessions', r.session_id);
      if (s === undefined) return 'its session was not imported';
      if (!roles.has(r.role)) return `role "${r.role}" is not user, assistant or system`;
      return Number(P('INSERT INTO session_turns (session_id, role, content, ts) VALUES (?, ?, ?, ?)').run(s, r.role, String(r.content), r.ts).lastInsertRowid);
    });
    if (!dryRun) for (const r of sessions) {
      const s = map('sessions', r.id);
      if (s !== undefined && r.ended_at != null) P("UPDATE sessions SET status = 'closed', ended_at = ? WHERE id = ? AND status = 'open'").run(r.ended_at, s);
    }

    const statuses = new Set(['open', 'closed', 'expired']);
    each('working_memory_tasks', rowsOf(src, 'working_memory_tasks'), (r) => {
      // The seed's promotion writes "Working task '<name>' summary: …" (source working_memory).
      const promoted = memRows.find((m) => m.source === 'working_memory' && String(m.fact).startsWith(`Working task '${r.name}'`));
      return Number(P('INSERT INTO working_memory_tasks (name, entity_id, status, ttl_ts, created, closed_at, promoted_memory_id) VALUES (?, ?, ?, ?, ?, ?, ?)')
        .run(String(r.name), ent(r.entity_id) ?? null, statuses.has(r.status) ? r.status : 'closed', r.ttl_ts ?? null, r.created, r.closed_at ?? null,
          promoted ? (map('memories', promoted.id) ?? null) : null).lastInsertRowid);
    });
    each('working_memory_slots', rowsOf(src, 'working_memory_slots'), (r) => {
      const t = map('working_memory_tasks', r.task_id);
      if (t === undefined) return 'its task was not imported';
      let value = String(r.value);
      try {
        JSON.parse(value);
      } catch {
        value = JSON.stringify(value); // a bare string slot from an older version
      }
      return Number(P('INSERT INTO working_memory_slots (task_id, key, value, created, updated) VALUES (?, ?, ?, ?, ?)')
        .run(t, String(r.key), value, r.created, r.updated ?? r.created).lastInsertRowid);
    });

    // The seed's intentions stay active after firing (intention 1 fired and is still active): once = 0.
    each('intentions', rowsOf(src, 'intentions'), (r) => {
      const e = ent(r.entity_id);
      if (e === undefined) return 'it has no entity (Hearth intentions belong to one)';
      const t = triggerTerms(String(r.trigger_text));
      if (!t.length) return 'its trigger has no words to match on';
      const id = Number(P('INSERT INTO intentions (entity_id, trigger_text, action_text, active, once, expires_at, created, fired_count, last_fired) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)')
        .run(e, String(r.trigger_text), String(r.action_text), r.active ? 1 : 0, r.expires_ts ?? null, r.created, r.fired_count ?? 0, r.last_fired ?? null).lastInsertRowid);
      P('INSERT INTO intention_fts (rowid, terms) VALUES (?, ?)').run(id, t.join(' '));
      return id;
    });

    const activeLoc = P('SELECT id FROM locations WHERE entity_id = ? AND active = 1');
    each('locations', rowsOf(src, 'locations'), (r) => {
      const e = ent(r.entity_id);
      if (e === undefined) return 'its entity was not imported';
      // Hearth keeps one active row per object; one already there (newer, Hearth's own) wins.
      const active = r.active && !activeLoc.get(e) ? 1 : 0;
      return Number(P('INSERT INTO locations (entity_id, container_id, container_name, confidence, last_confirmed_ts, active, source, note, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
        .run(e, ent(r.container_id) ?? null, String(r.container_name), clamp01(r.confidence), r.last_confirmed_ts, active, r.source ?? null, r.note ?? null, r.created).lastInsertRowid);
    });

    each('promoted_patterns', rowsOf(src, 'promoted_patterns'), (r) => {
      const e = entityById.get(ent(r.entity_id) ?? -1) as { id: number; name: string } | undefined;
      if (!e) return 'its entity was not imported';
      // The seed's keys are unique per (entity, metric); Hearth's globally, and name their detector.
      const key = `memory-mcp:${e.name}:${r.metric}:${r.pattern_key}`;
      const evidence = JSON.stringify({ imported_from: 'memory-mcp', pattern_key: r.pattern_key });
      const res = P("INSERT OR IGNORE INTO promoted_patterns (entity_id, metric, pattern_key, detector, memory_id, detected, evidence) VALUES (?, ?, ?, 'memory-mcp', ?, ?, ?)")
        .run(e.id, String(r.metric), key, map('memories', r.memory_id) ?? null, r.detected, evidence);
      return res.changes ? Number(res.lastInsertRowid) : (P('SELECT id FROM promoted_patterns WHERE pattern_key = ?').get(key) as { id: number }).id;
    });
    return { counts, warnings };
  }

  /** Readings go into Hearth's series layout; a composite's parts point at their parent. */
  function copyReadings(src: Database.Database, each: (t: McpTable, rows: Iterable<Row>, f: (r: Row) => number | string) => void, ent: (id: unknown) => number | undefined) {
    const findSeries = db.prepare('SELECT id, value_type FROM series WHERE entity_id = ? AND metric = ?');
    const insertSeries = db.prepare('INSERT INTO series (entity_id, metric, unit, value_type, created) VALUES (?, ?, ?, ?, ?)');
    const findSource = db.prepare('SELECT id FROM sources WHERE name = ?');
    const insertSource = db.prepare('INSERT INTO sources (name) VALUES (?)');
    const insert = db.prepare('INSERT INTO readings (series_id, ts_ms, value_num, value_cat, value_json, source_id, parent_id) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const parents = new Map<string, { metric: string; id: number }>();
    each('readings', streamOf(src, 'readings'), (r) => {
      const e = ent(r.entity_id);
      if (e === undefined) return 'its entity was not imported';
      const type = ['numeric', 'categorical', 'composite'].includes(r.value_type) ? r.value_type : 'numeric';
      let s = findSeries.get(e, r.metric) as { id: number; value_type: string } | undefined;
      s ??= { id: Number(insertSeries.run(e, r.metric, r.unit ?? null, type, r.ts).lastInsertRowid), value_type: type };
      if (s.value_type !== type) return `${r.metric} is ${s.value_type} in Hearth, ${type} in the source`;
      if (type === 'numeric' && typeof r.value_num !== 'number') return 'numeric reading without a number';
      if (type === 'categorical' && r.value_cat == null) return 'categorical reading without a value';
      if (type === 'composite' && json(r.value_json, '') === '') return 'composite reading without a JSON object';
      const source = r.source ? ((findSource.get(r.source) as { id: number } | undefined)?.id ?? Number(insertSource.run(r.source).lastInsertRowid)) : null;
      const ts = Math.round(Number(r.ts) * 1000);
      const key = `${e}\u0000${ts}`;
      const parent = type !== 'composite' && String(r.metric).startsWith(`${parents.get(key)?.metric}.`) ? parents.get(key)!.id : null;
      const id = Number(insert.run(s.id, ts, type === 'numeric' ? r.value_num : null, type === 'categorical' ? String(r.value_cat) : null,
        type === 'composite' ? r.value_json : null, source, parent).lastInsertRowid);
      if (type === 'composite') parents.set(key, { metric: r.metric, id });
      return id;
    });
  }

  return {
    /** Copies what is new in the memory-mcp file at `path`; `dryRun` only counts. */
    async run(path: string, opts: { dryRun?: boolean; log?: (m: string) => void } = {}) {
      if (!existsSync(path)) throw invalid(`db: no file at ${path}`);
      let src: Database.Database;
      try {
        src = new Database(path, { readonly: true, fileMustExist: true });
        src.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'memories'").get();
      } catch (e) {
        throw invalid(`db: ${path} is not a readable SQLite file (${(e as Error).message})`);
      }
      try {
        const hasEntities = src.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'entities'").get();
        if (!hasEntities) throw invalid(`db: ${path} has no entities table; is it a memory-mcp database?`);
        // The source's identity: its first entity never changes while the server keeps writing.
        const first = src.prepare('SELECT id, name, created FROM entities ORDER BY id LIMIT 1').get() as Row | undefined;
        const source = `memory-mcp:${createHash('sha256').update(JSON.stringify(first ?? {})).digest('hex').slice(0, 16)}`;
        const { counts, warnings } = db.transaction(() => {
          const out = copy(src, source, Boolean(opts.dryRun));
          if (!opts.dryRun && Object.values(out.counts).some((c) => c.imported)) deps.audit.record('import', 'import.memory-mcp', source, null, { path, counts: Object.fromEntries(Object.entries(out.counts).map(([t, c]) => [t, c.imported])) });
          return out;
        })();
        const imported = Object.values(counts).reduce((n, c) => n + c.imported, 0);
        let embedded = 0;
        if (!opts.dryRun && imported) {
          try {
            deps.rollup();
          } catch (e) {
            warnings.push(`rollups: ${(e as Error).message}; the scheduler rolls them up later`);
          }
          for (;;) {
            const r = await deps.memory.embedPending(256).catch((e: Error) => (warnings.push(`embedding: ${e.message}; run hearth reembed`), { embedded: 0, remaining: 0 }));
            embedded += r.embedded;
            if (!r.embedded || !r.remaining) break;
          }
        }
        const lines = MCP_TABLES.map((t) => `${t}: ${counts[t].source} in source, ${counts[t].imported} ${opts.dryRun ? 'to import' : 'imported'}, ${counts[t].already} already imported${counts[t].skipped ? `, ${counts[t].skipped} skipped` : ''}`);
        const result = `${opts.dryRun ? 'Dry run: would import' : 'Imported'} ${imported} rows from ${path}${opts.dryRun ? '' : ` (${embedded} memories embedded)`}\n${lines.join('\n')}`;
        return { result, source, dry_run: Boolean(opts.dryRun), imported, embedded, counts, warnings };
      } finally {
        src.close();
      }
    },
  };
}
export type MemoryMcpImporter = ReturnType<typeof createMemoryMcpImporter>;
