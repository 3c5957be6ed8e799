/**
 * How each checked memory-mcp row is written: every table through its tier's own writer, never an
 * INSERT here — `entities.ensure`, `memory.repo.insert`, `relations.relate`, `timeseries.repo.write`,
 * `schedule.schedule` (with a narrow `kept` option for the original times where the tier stamps `now`),
 * and the tiers' import writers for sessions and turns, working memory, intentions, sightings and
 * promoted patterns (tiers/episodic|working|prospective|spatial/import.ts, patterns/import.ts), after
 * the door's schema checked the row (rows.ts). A writer returns the new id, or why the row is refused
 * before it wrote anything; one that throws after writing is undone by the caller (memory-mcp.ts).
 * See docs/import-memory-mcp.md for every mapping.
 */
import type { Clock } from '../../lib/clock.js';
import type { PatternsImport } from '../../patterns/import.js';
import type { EntitiesRepo } from '../../tiers/entities/entities.repo.js';
import type { MemoryService } from '../../tiers/memory/memory.service.js';
import type { RelationsService } from '../../tiers/memory/relations.service.js';
import { indexText, terms } from '../../tiers/memory/text-match.js';
import { toEpoch } from '../../lib/schema.js';
import type { EpisodicImport } from '../../tiers/episodic/import.js';
import type { ProspectiveImport } from '../../tiers/prospective/import.js';
import type { SpatialImport } from '../../tiers/spatial/import.js';
import type { WorkingImport } from '../../tiers/working/import.js';
import type { ScheduleService } from '../../tiers/schedule/schedule.service.js';
import type { TimeseriesService } from '../../tiers/timeseries/timeseries.service.js';
import * as rows from './rows.js';
import type { Checked, Row } from './rows.js';

export const MCP_TABLES = [
  'entities',
  'memories',
  'relations',
  'readings',
  'schedule_events',
  'sessions',
  'session_turns',
  'working_memory_tasks',
  'working_memory_slots',
  'intentions',
  'locations',
  'promoted_patterns',
] as const;
export type McpTable = (typeof MCP_TABLES)[number];

/** The tiers' import writers (each tier's own file, e.g. tiers/episodic/import.ts). */
export interface ImportWriters {
  episodic: EpisodicImport;
  working: WorkingImport;
  prospective: ProspectiveImport;
  spatial: SpatialImport;
  patterns: PatternsImport;
}

export interface TableDeps {
  clock: Clock;
  entities: EntitiesRepo;
  memory: MemoryService;
  relations: RelationsService;
  timeseries: TimeseriesService;
  schedule: ScheduleService;
  writers: ImportWriters;
}
/** Runs `write` for each source row not imported yet: it returns the new id, or why the row is skipped. */
export type Each = (table: McpTable, rows: Iterable<Row>, write: (r: Row) => number | string) => void;
/** The Hearth id a source row became (this run or an earlier one). */
export type MapId = (table: McpTable, id: unknown) => number | undefined;

const ts = (t: number | string) => toEpoch(t);
const opt = (t: number | string | null | undefined) => (t == null ? null : toEpoch(t));

/**
 * A row that belongs to an entity (its `entity_id`): the name that entity was imported under, the row
 * checked with it (rows.ts), then written by `write` (the new id); else why the row is skipped.
 */
function ofEntity<T>(
  name: string | undefined,
  r: Row,
  check: (r: Row, name: string) => Checked<T>,
  write: (data: T, name: string) => number | string,
  orphan = 'its entity was not imported',
): number | string {
  if (!name) return orphan;
  const c = check(r, name);
  return c.ok ? write(c.data, name) : c.problem;
}

export function copyTables(
  deps: TableDeps,
  src: { rows: (t: string) => Row[]; stream: (t: string) => Iterable<Row> },
  each: Each,
  map: MapId,
) {
  const { entities, memory, relations } = deps;
  const { episodic, working, prospective, spatial, patterns } = deps.writers;
  const names = new Map<number, string | undefined>(); // Hearth entity id → name: readings ask per row
  const nameOf = (table: McpTable, id: unknown) => {
    const dst = map(table, id);
    if (dst === undefined) return undefined;
    if (!names.has(dst)) names.set(dst, entities.byId(dst)?.name);
    return names.get(dst);
  };

  each('entities', src.rows('entities'), (r) => {
    const c = rows.entity(r);
    if (!c.ok) return c.problem;
    // One identity rule with every other door (lib/names.ts): "Zoë" and "ZOË" are one entity; one that
    // exists keeps its own type and meta.
    const { name, type, meta } = c.data.input;
    return entities.ensure(name, type, {
      meta,
      created: ts(c.data.kept.created),
      updated: ts(c.data.kept.updated ?? c.data.kept.created),
    }).id;
  });

  const memRows = src.rows('memories');
  each('memories', memRows, (r) =>
    ofEntity(nameOf('entities', r.entity_id), r, rows.memory, ({ input: m, kept: k }, name) => {
      const e = entities.get(name);
      const created = ts(k.created);
      return memory.repo.insert(
        {
          entity_id: e.id,
          fact: m.fact,
          category: m.category,
          confidence: m.confidence,
          source: m.source,
          source_trust: m.source_trust as number,
          fact_key: null,
          valid_from: created,
          status: 'active',
        },
        terms(indexText(e.name, m.fact)).join(' '),
        created,
        {
          created,
          updated: ts(k.updated ?? k.created),
          last_confirmed: ts(k.updated ?? k.created),
          last_accessed: k.last_accessed == null ? null : ts(k.last_accessed),
          access_count: k.access_count,
        },
      );
    }),
  );
  // Second pass: the chain. The newer row's creation is when the older one stopped being valid.
  for (const r of memRows) {
    const older = map('memories', r.id);
    const newer = map('memories', r.superseded_by);
    const o = older === undefined ? undefined : memory.repo.get(older);
    const n = newer === undefined ? undefined : memory.repo.get(newer);
    if (o && n && o.superseded_by === null) memory.repo.supersede(o.id, n.id, n.created, o.updated);
  }

  each('relations', src.rows('relations'), (r) => {
    const a = nameOf('entities', r.entity_a),
      b = nameOf('entities', r.entity_b);
    if (!a || !b) return 'an entity was not imported';
    const c = rows.relation(r, a, b);
    if (!c.ok) return c.problem;
    const k = c.data.kept;
    return relations.relate(c.data.input, 'import', {
      created: ts(k.created),
      valid_from: ts(k.valid_from),
      valid_until: k.valid_until == null ? null : ts(k.valid_until),
    }).id;
  });

  copyReadings(deps.timeseries, src.stream('readings'), each, (id) => nameOf('entities', id));

  each('schedule_events', src.rows('schedule_events'), (r) =>
    ofEntity(
      nameOf('entities', r.entity_id),
      r,
      rows.scheduleEvent,
      (d) => deps.schedule.schedule(d.input, 'import', { created: ts(d.kept.created) }).id,
    ),
  );

  // Sessions arrive open so their turns can be appended, then close (episodic/import.ts).
  const sessions = src.rows('sessions');
  each('sessions', sessions, (r) =>
    ofEntity(nameOf('entities', r.entity_id), r, rows.session, (d) =>
      episodic.session(d.input, { started_at: ts(d.kept.started_at), summary: d.kept.summary }),
    ),
  );
  each('session_turns', src.rows('session_turns'), (r) => {
    const s = map('sessions', r.session_id);
    if (s === undefined) return 'its session was not imported';
    const c = rows.turn(r, s);
    if (!c.ok) return c.problem;
    return episodic.turn({ ...c.data, ts: ts(c.data.ts!) });
  });
  for (const r of sessions) {
    const s = map('sessions', r.id);
    const ended = rows.session(r, 'x');
    if (s !== undefined && ended.ok && ended.data.kept.ended_at != null)
      episodic.close(s, ts(ended.data.kept.ended_at));
  }

  each('working_memory_tasks', src.rows('working_memory_tasks'), (r) => {
    const c = rows.task(r, nameOf('entities', r.entity_id));
    if (!c.ok) return c.problem;
    const k = c.data.kept;
    // The seed's promotion writes "Working task '<name>' summary: …" (source working_memory).
    const promoted = memRows.find(
      (m) => m.source === 'working_memory' && String(m.fact).startsWith(`Working task '${r.name}'`),
    );
    return working.task(c.data.input, {
      status: String(r.status),
      created: ts(k.created),
      ttl_ts: opt(k.ttl_ts),
      closed_at: opt(k.closed_at),
      promoted_memory_id: promoted ? (map('memories', promoted.id) ?? null) : null,
    });
  });
  each('working_memory_slots', src.rows('working_memory_slots'), (r) => {
    const t = map('working_memory_tasks', r.task_id);
    if (t === undefined) return 'its task was not imported';
    const c = rows.slot(r, t);
    if (!c.ok) return c.problem;
    return working.slot(c.data.input, {
      created: ts(c.data.kept.created),
      updated: ts(c.data.kept.updated ?? c.data.kept.created),
    });
  });

  // The seed's intentions stay active after firing (intention 1 fired and is still active): once = false (rows.ts).
  each('intentions', src.rows('intentions'), (r) =>
    ofEntity(
      nameOf('entities', r.entity_id),
      r,
      rows.intention,
      ({ input: i, kept: k }) =>
        prospective.intention(i, {
          active: Boolean(r.active),
          created: ts(k.created),
          fired_count: k.fired_count,
          last_fired: opt(k.last_fired),
          expires_at: i.expires_ts === undefined ? null : ts(i.expires_ts),
        }),
      'it has no entity (Hearth intentions belong to one)',
    ),
  );

  each('locations', src.rows('locations'), (r) =>
    ofEntity(nameOf('entities', r.entity_id), r, rows.location, (d) =>
      spatial.location(
        { ...d.input, ts: ts(d.input.ts!) },
        {
          active: Boolean(r.active),
          created: ts(d.kept.created),
          container_id: map('entities', r.container_id) ?? null,
        },
      ),
    ),
  );

  each('promoted_patterns', src.rows('promoted_patterns'), (r) =>
    // The seed's keys are unique per (entity, metric); Hearth's globally, and name their detector.
    ofEntity(nameOf('entities', r.entity_id), r, rows.pattern, (p, name) =>
      patterns.promoted({
        entity_name: name,
        metric: p.metric,
        pattern_key: `memory-mcp:${name}:${p.metric}:${p.pattern_key}`,
        detector: 'memory-mcp',
        memory_id: map('memories', r.memory_id) ?? null,
        detected: ts(p.detected),
        evidence: { imported_from: 'memory-mcp', pattern_key: p.pattern_key },
      }),
    ),
  );
  return { memRows };
}

/**
 * Readings through the time-series tier's own writer (`timeseries.repo.write`: series, sources, the
 * series index, a composite's parts), the same one every door's readings take. memory-mcp stored a
 * composite's parts as rows of their own after the parent; Hearth's writer makes them from the
 * parent, so a part row maps to the part the parent made.
 */
function copyReadings(
  timeseries: TimeseriesService,
  source: Iterable<Row>,
  each: Each,
  nameOf: (id: unknown) => string | undefined,
) {
  const parents = new Map<string, { metric: string; children: Map<string, number> }>();
  each('readings', source, (r) =>
    ofEntity(nameOf(r.entity_id), r, rows.reading, (d, name) => {
      const { value, metric, unit } = d;
      const ms = Math.round(ts(d.ts!) * 1000);
      const key = `${name}\u0000${ms}`;
      const parent = parents.get(key);
      if (parent && metric.startsWith(`${parent.metric}.`)) {
        const part = parent.children.get(metric);
        return part ?? `value: not a part of the ${parent.metric} reading it follows`;
      }
      const w = timeseries.repo.write({
        entity_name: name,
        metric,
        value: value as never,
        unit,
        source: d.source ?? 'memory-mcp',
        ts_ms: ms,
      });
      if (!w.ok) return 'not stored';
      if (w.value_type === 'composite')
        parents.set(key, { metric, children: new Map(w.children.map((ch) => [ch.metric, ch.id])) });
      return w.id;
    }),
  );
}
