/**
 * How each checked memory-mcp row is written. Entities, memories, relations, readings and schedule
 * events go through their tier's own writers (`entities.ensure`, `memory.repo.insert`,
 * `relations.relate`, `timeseries.repo.write`, `schedule.schedule`, with a narrow `kept` option for the
 * original times where the tier stamps `now`); sessions, working memory, intentions, sightings and
 * promoted patterns are still inserted here, after the same door schema checked them (rows.ts).
 * See docs/import-memory-mcp.md for every mapping.
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import type { EntitiesRepo } from '../../tiers/entities/entities.repo.js';
import type { MemoryService } from '../../tiers/memory/memory.service.js';
import type { RelationsService } from '../../tiers/memory/relations.service.js';
import { indexText, terms } from '../../tiers/memory/text-match.js';
import { toEpoch } from '../../lib/schema.js';
import { triggerTerms } from '../../tiers/prospective/trigger-match.js';
import type { ScheduleService } from '../../tiers/schedule/schedule.service.js';
import type { TimeseriesService } from '../../tiers/timeseries/timeseries.service.js';
import * as rows from './rows.js';
import type { Row } from './rows.js';

export const MCP_TABLES = [
  'entities', 'memories', 'relations', 'readings', 'schedule_events', 'sessions', 'session_turns',
  'working_memory_tasks', 'working_memory_slots', 'intentions', 'locations', 'promoted_patterns',
] as const;
export type McpTable = (typeof MCP_TABLES)[number];

export interface TableDeps {
  db: Db; clock: Clock; entities: EntitiesRepo; memory: MemoryService; relations: RelationsService;
  timeseries: TimeseriesService; schedule: ScheduleService;
}
/** Runs `write` for each source row not imported yet: it returns the new id, or why the row is skipped. */
export type Each = (table: McpTable, rows: Iterable<Row>, write: (r: Row) => number | string) => void;
/** The Hearth id a source row became (this run or an earlier one). */
export type MapId = (table: McpTable, id: unknown) => number | undefined;

const ts = (t: number | string) => toEpoch(t);

export function copyTables(deps: TableDeps, src: { rows: (t: string) => Row[]; stream: (t: string) => Iterable<Row> }, each: Each, map: MapId) {
  const { db, entities, memory, relations } = deps;
  const P = (sql: string) => db.prepare(sql);
  const names = new Map<number, string | undefined>(); // Hearth entity id → name: readings ask per row
  const nameOf = (table: McpTable, id: unknown) => {
    const dst = map(table, id);
    if (dst === undefined) return undefined;
    if (!names.has(dst)) names.set(dst, entities.byId(dst)?.name);
    return names.get(dst);
  };
  const problem = (c: { ok: false; problem: string }) => c.problem;

  each('entities', src.rows('entities'), (r) => {
    const c = rows.entity(r);
    if (!c.ok) return problem(c);
    // One identity rule with every other door (lib/names.ts): "Zoë" and "ZOË" are one entity; one that
    // exists keeps its own type and meta.
    const { name, type, meta } = c.data.input;
    return entities.ensure(name, type, { meta, created: ts(c.data.kept.created), updated: ts(c.data.kept.updated ?? c.data.kept.created) }).id;
  });

  const memRows = src.rows('memories');
  each('memories', memRows, (r) => {
    const name = nameOf('entities', r.entity_id);
    if (!name) return 'its entity was not imported';
    const c = rows.memory(r, name);
    if (!c.ok) return problem(c);
    const m = c.data.input;
    const k = c.data.kept;
    const e = entities.get(name);
    const created = ts(k.created);
    return memory.repo.insert(
      { entity_id: e.id, fact: m.fact, category: m.category, confidence: m.confidence, source: m.source, source_trust: m.source_trust as number, fact_key: null, valid_from: created, status: 'active' },
      terms(indexText(e.name, m.fact)).join(' '), created,
      { created, updated: ts(k.updated ?? k.created), last_confirmed: ts(k.updated ?? k.created), last_accessed: k.last_accessed == null ? null : ts(k.last_accessed), access_count: k.access_count },
    );
  });
  // Second pass: the chain. The newer row's creation is when the older one stopped being valid.
  for (const r of memRows) {
    const older = map('memories', r.id);
    const newer = map('memories', r.superseded_by);
    const o = older === undefined ? undefined : memory.repo.get(older);
    const n = newer === undefined ? undefined : memory.repo.get(newer);
    if (o && n && o.superseded_by === null) memory.repo.supersede(o.id, n.id, n.created, o.updated);
  }

  each('relations', src.rows('relations'), (r) => {
    const a = nameOf('entities', r.entity_a), b = nameOf('entities', r.entity_b);
    if (!a || !b) return 'an entity was not imported';
    const c = rows.relation(r, a, b);
    if (!c.ok) return problem(c);
    const k = c.data.kept;
    return relations.relate(c.data.input, 'import', { created: ts(k.created), valid_from: ts(k.valid_from), valid_until: k.valid_until == null ? null : ts(k.valid_until) }).id;
  });

  copyReadings(deps.timeseries, src.stream('readings'), each, (id) => nameOf('entities', id));

  each('schedule_events', src.rows('schedule_events'), (r) => {
    const name = nameOf('entities', r.entity_id);
    if (!name) return 'its entity was not imported';
    const c = rows.scheduleEvent(r, name);
    if (!c.ok) return problem(c);
    return deps.schedule.schedule(c.data.input, 'import', { created: ts(c.data.kept.created) }).id;
  });

  // Sessions arrive open so their turns can be appended (a trigger refuses turns of closed ones), then close.
  const sessions = src.rows('sessions');
  each('sessions', sessions, (r) => {
    const name = nameOf('entities', r.entity_id);
    if (!name) return 'its entity was not imported';
    const c = rows.session(r, name);
    if (!c.ok) return problem(c);
    return Number(P("INSERT INTO sessions (entity_id, started_at, ended_at, summary, meta, status) VALUES (?, ?, NULL, ?, ?, 'open')")
      .run(map('entities', r.entity_id), ts(c.data.kept.started_at), c.data.kept.summary, JSON.stringify(c.data.input.meta ?? {})).lastInsertRowid);
  });
  each('session_turns', src.rows('session_turns'), (r) => {
    const s = map('sessions', r.session_id);
    if (s === undefined) return 'its session was not imported';
    const c = rows.turn(r, s);
    if (!c.ok) return problem(c);
    return Number(P('INSERT INTO session_turns (session_id, role, content, ts) VALUES (?, ?, ?, ?)').run(s, c.data.role, c.data.content, ts(c.data.ts!)).lastInsertRowid);
  });
  for (const r of sessions) {
    const s = map('sessions', r.id);
    const ended = rows.session(r, 'x');
    if (s !== undefined && ended.ok && ended.data.kept.ended_at != null) P("UPDATE sessions SET status = 'closed', ended_at = ? WHERE id = ? AND status = 'open'").run(ts(ended.data.kept.ended_at), s);
  }

  const statuses = new Set(['open', 'closed', 'expired']);
  each('working_memory_tasks', src.rows('working_memory_tasks'), (r) => {
    const c = rows.task(r, nameOf('entities', r.entity_id));
    if (!c.ok) return problem(c);
    const k = c.data.kept;
    // The seed's promotion writes "Working task '<name>' summary: …" (source working_memory).
    const promoted = memRows.find((m) => m.source === 'working_memory' && String(m.fact).startsWith(`Working task '${r.name}'`));
    return Number(P('INSERT INTO working_memory_tasks (name, entity_id, status, ttl_ts, created, closed_at, promoted_memory_id) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(c.data.input.task_name, map('entities', r.entity_id) ?? null, statuses.has(r.status) ? r.status : 'closed', k.ttl_ts == null ? null : ts(k.ttl_ts), ts(k.created),
        k.closed_at == null ? null : ts(k.closed_at), promoted ? (map('memories', promoted.id) ?? null) : null).lastInsertRowid);
  });
  each('working_memory_slots', src.rows('working_memory_slots'), (r) => {
    const t = map('working_memory_tasks', r.task_id);
    if (t === undefined) return 'its task was not imported';
    const c = rows.slot(r, t);
    if (!c.ok) return problem(c);
    return Number(P('INSERT INTO working_memory_slots (task_id, key, value, created, updated) VALUES (?, ?, ?, ?, ?)')
      .run(t, c.data.input.key, JSON.stringify(c.data.input.value), ts(c.data.kept.created), ts(c.data.kept.updated ?? c.data.kept.created)).lastInsertRowid);
  });

  // The seed's intentions stay active after firing (intention 1 fired and is still active): once = 0.
  each('intentions', src.rows('intentions'), (r) => {
    const name = nameOf('entities', r.entity_id);
    if (!name) return 'it has no entity (Hearth intentions belong to one)';
    const c = rows.intention(r, name);
    if (!c.ok) return problem(c);
    const i = c.data.input, k = c.data.kept;
    const t = triggerTerms(i.trigger_text);
    if (!t.length) return 'trigger_text: has no words to match on';
    const id = Number(P('INSERT INTO intentions (entity_id, trigger_text, action_text, active, once, expires_at, created, fired_count, last_fired) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?)')
      .run(map('entities', r.entity_id), i.trigger_text, i.action_text, r.active ? 1 : 0, i.expires_ts === undefined ? null : ts(i.expires_ts), ts(k.created), k.fired_count, k.last_fired == null ? null : ts(k.last_fired)).lastInsertRowid);
    P('INSERT INTO intention_fts (rowid, terms) VALUES (?, ?)').run(id, t.join(' '));
    return id;
  });

  const activeLoc = P('SELECT id FROM locations WHERE entity_id = ? AND active = 1');
  each('locations', src.rows('locations'), (r) => {
    const name = nameOf('entities', r.entity_id);
    if (!name) return 'its entity was not imported';
    const c = rows.location(r, name);
    if (!c.ok) return problem(c);
    const e = map('entities', r.entity_id)!;
    const l = c.data.input;
    // Hearth keeps one active row per object; one already there (newer, Hearth's own) wins.
    const active = r.active && !activeLoc.get(e) ? 1 : 0;
    return Number(P('INSERT INTO locations (entity_id, container_id, container_name, confidence, last_confirmed_ts, active, source, note, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e, map('entities', r.container_id) ?? null, l.container_name, l.confidence, ts(l.ts!), active, l.source ?? null, l.note ?? null, ts(c.data.kept.created)).lastInsertRowid);
  });

  each('promoted_patterns', src.rows('promoted_patterns'), (r) => {
    const name = nameOf('entities', r.entity_id);
    if (!name) return 'its entity was not imported';
    const c = rows.pattern(r);
    if (!c.ok) return problem(c);
    // The seed's keys are unique per (entity, metric); Hearth's globally, and name their detector.
    const key = `memory-mcp:${name}:${c.data.metric}:${c.data.pattern_key}`;
    const evidence = JSON.stringify({ imported_from: 'memory-mcp', pattern_key: c.data.pattern_key });
    const res = P("INSERT OR IGNORE INTO promoted_patterns (entity_id, metric, pattern_key, detector, memory_id, detected, evidence) VALUES (?, ?, ?, 'memory-mcp', ?, ?, ?)")
      .run(map('entities', r.entity_id), c.data.metric, key, map('memories', r.memory_id) ?? null, ts(c.data.detected), evidence);
    return res.changes ? Number(res.lastInsertRowid) : (P('SELECT id FROM promoted_patterns WHERE pattern_key = ?').get(key) as { id: number }).id;
  });
  return { memRows };
}

/**
 * Readings through the time-series tier's own writer (`timeseries.repo.write`: series, sources, the
 * series index, a composite's parts), the same one every door's readings take. memory-mcp stored a
 * composite's parts as rows of their own after the parent; Hearth's writer makes them from the
 * parent, so a part row maps to the part the parent made.
 */
function copyReadings(timeseries: TimeseriesService, source: Iterable<Row>, each: Each, nameOf: (id: unknown) => string | undefined) {
  const parents = new Map<string, { metric: string; children: Map<string, number> }>();
  each('readings', source, (r) => {
    const name = nameOf(r.entity_id);
    if (!name) return 'its entity was not imported';
    const c = rows.reading(r, name);
    if (!c.ok) return c.problem;
    const { value, metric, unit } = c.data;
    const ms = Math.round(ts(c.data.ts!) * 1000);
    const key = `${name}\u0000${ms}`;
    const parent = parents.get(key);
    if (parent && metric.startsWith(`${parent.metric}.`)) {
      const part = parent.children.get(metric);
      return part ?? `value: not a part of the ${parent.metric} reading it follows`;
    }
    const w = timeseries.repo.write({ entity_name: name, metric, value: value as never, unit, source: c.data.source ?? 'memory-mcp', ts_ms: ms });
    if (!w.ok) return 'not stored';
    if (w.value_type === 'composite') parents.set(key, { metric, children: new Map(w.children.map((ch) => [ch.metric, ch.id])) });
    return w.id;
  });
}
