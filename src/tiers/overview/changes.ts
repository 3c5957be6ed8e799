/**
 * The audit log as a household reads it (the dashboard's "Recent changes"): each entry with what it
 * is about, resolved now from the rows it names — a memory's entity and fact, a relation's two ends,
 * a reminder's words — or, when that row is gone, from what the log itself kept (a forgotten
 * memory's `before`, a relation's `relation.add`), so no change is shown as a bare id. Read-only;
 * the door puts the verbs in front (src/http/admin/audit-words.ts).
 */
import type { Db } from '../../db/open.js';
import { nameKey } from '../../lib/names.js';
import { plural } from '../../lib/plural.js';
import type { AuditRow } from '../audit/audit.repo.js';

/** Plain text, or an entity by name (`exists`: a link can open it). */
export type ChangePart = string | { entity: string; exists: boolean };

export interface Change {
  id: number;
  ts: number;
  actor: string;
  op: string;
  parts: ChangePart[];
  /** What it is about is no longer stored (forgotten, deleted). */
  gone: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: audit before/after are free-form JSON, read field by field with fallbacks
type Json = Record<string, any> | null;
type Row = AuditRow;

const MAX = 160;
const clip = (s: unknown) => {
  const t = String(s ?? '');
  return t.length > MAX ? `${t.slice(0, MAX - 1)}…` : t;
};
const quoted = (s: unknown) => `‘${clip(s)}’`;
const parse = (s: string | null): Json => (s ? (JSON.parse(s) as Json) : null);

export function createChangeSubjects(db: Db) {
  const recent = db.prepare('SELECT * FROM audit ORDER BY ts DESC, id DESC LIMIT ?');
  const firstOf = db.prepare('SELECT before, after FROM audit WHERE op = ? AND target = ? ORDER BY id DESC LIMIT 1');
  const entityName = db
    .prepare(
      'SELECT e.name FROM entities e WHERE e.name_key = @key UNION ALL SELECT e.name FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE a.name_key = @key LIMIT 1',
    )
    .pluck();
  const entityById = db.prepare('SELECT name FROM entities WHERE id = ?').pluck();
  // An entity since forgotten: its name as the forget recorded it.
  const forgottenName = db
    .prepare(
      "SELECT json_extract(before, '$.entity.name') FROM audit WHERE op = 'entity.forget' AND json_extract(before, '$.entity.id') = ? ORDER BY id DESC LIMIT 1",
    )
    .pluck();
  const memory = db.prepare(
    'SELECT m.fact, e.name FROM memories m JOIN entities e ON e.id = m.entity_id WHERE m.id = ?',
  );
  const relation = db.prepare(
    'SELECT r.rel_type, a.name AS a, b.name AS b FROM relations r JOIN entities a ON a.id = r.entity_a JOIN entities b ON b.id = r.entity_b WHERE r.id = ?',
  );
  const location = db.prepare(
    'SELECT e.name, l.container_name FROM locations l JOIN entities e ON e.id = l.entity_id WHERE l.id = ?',
  );
  const intention = db.prepare(
    'SELECT e.name, i.trigger_text, i.action_text FROM intentions i JOIN entities e ON e.id = i.entity_id WHERE i.id = ?',
  );
  const session = db
    .prepare('SELECT e.name FROM sessions s JOIN entities e ON e.id = s.entity_id WHERE s.id = ?')
    .pluck();
  const task = db.prepare(
    'SELECT t.name, e.name AS entity FROM working_memory_tasks t LEFT JOIN entities e ON e.id = t.entity_id WHERE t.id = ?',
  );
  const schedule = db.prepare(
    'SELECT e.name, s.title FROM schedule_events s JOIN entities e ON e.id = s.entity_id WHERE s.id = ?',
  );

  /** An entity by a name it had: linked under its current name while it (or that name as an alias) exists. */
  const ent = (name: unknown): ChangePart => {
    const now = typeof name === 'string' ? (entityName.get({ key: nameKey(name) }) as string | undefined) : undefined;
    return now ? { entity: now, exists: true } : { entity: String(name ?? 'an entity'), exists: false };
  };
  /** The `after` of the row that created what `target` names (`relation.add`, `intention.add`, …). */
  const created = (op: string, target: string | null) =>
    target === null ? null : parse((firstOf.get(op, target) as { after: string | null } | undefined)?.after ?? null);
  const gone = (parts: ChangePart[]) => ({ parts, gone: true });
  const here = (parts: ChangePart[]) => ({ parts, gone: false });

  function memoryParts(r: Row, before: Json, after: Json) {
    const m = memory.get(r.target) as { fact: string; name: string } | undefined;
    if (m) return here([ent(m.name), ': ', quoted(m.fact)]);
    const forgotten =
      r.op === 'memory.forget'
        ? before
        : parse((firstOf.get('memory.forget', r.target) as { before: string | null } | undefined)?.before ?? null);
    if (forgotten?.fact) return gone([ent(forgotten.entity_name), ': ', quoted(forgotten.fact)]);
    const kept = after?.fact ? after : created('memory.add', r.target);
    if (kept?.fact)
      return gone([
        ent(entityById.get(kept.entity_id) ?? forgottenName.get(kept.entity_id) ?? 'an entity since forgotten'),
        ': ',
        quoted(kept.fact),
      ]);
    return gone(['a memory']);
  }

  function describe(r: Row): { parts: ChangePart[]; gone: boolean } {
    const before = parse(r.before);
    const after = parse(r.after);
    const [tier] = r.op.split('.');
    switch (tier) {
      case 'memory':
        return memoryParts(r, before, after);
      case 'relation': {
        const rel = relation.get(r.target) as { rel_type: string; a: string; b: string } | undefined;
        if (rel) return here([ent(rel.a), ` → ${rel.rel_type.replaceAll('_', ' ')} → `, ent(rel.b)]);
        const add = r.op === 'relation.add' ? after : created('relation.add', r.target);
        return add
          ? gone([ent(add.entity_a), ` → ${String(add.rel_type).replaceAll('_', ' ')} → `, ent(add.entity_b)])
          : gone(['a relation']);
      }
      case 'location': {
        const l = location.get(r.target) as { name: string; container_name: string } | undefined;
        const kept = l
          ? { entity_name: l.name, container_name: l.container_name }
          : after?.entity_name
            ? after
            : (created('location.add', r.target) ?? created('location.move', r.target));
        if (!kept) return gone(['a place record']);
        return { parts: [ent(kept.entity_name), ' in ', ent(kept.container_name)], gone: !l };
      }
      case 'intention': {
        const i = intention.get(r.target) as { name: string; trigger_text: string; action_text: string } | undefined;
        const kept = i
          ? { entity_name: i.name, trigger_text: i.trigger_text, action_text: i.action_text }
          : created('intention.add', r.target);
        if (!kept) return gone(['a reminder']);
        return {
          parts: [ent(kept.entity_name), `: when ${quoted(kept.trigger_text)}, ${quoted(kept.action_text)}`],
          gone: !i,
        };
      }
      case 'session': {
        const name = session.get(r.op === 'session.turn' ? (after?.session_id ?? null) : r.target) as
          | string
          | undefined;
        return name ? here([ent(name)]) : gone(['someone since forgotten']);
      }
      case 'wm': {
        if (r.op === 'wm.prune') return here([`${after?.deleted ?? 0} finished tasks`]);
        const t = task.get(r.target) as { name: string; entity: string | null } | undefined;
        const name = t?.name ?? created('wm.open', r.target)?.name;
        if (!name) return gone(['a task']);
        return { parts: [quoted(name), ...(t?.entity ? [' for ', ent(t.entity)] : [])], gone: !t };
      }
      case 'schedule': {
        const e = schedule.get(r.target) as { name: string; title: string } | undefined;
        const kept = e ? { entity_name: e.name, title: e.title } : after;
        return kept ? { parts: [ent(kept.entity_name), `: ${quoted(kept.title)}`], gone: !e } : gone(['an event']);
      }
      case 'entity':
        return entityParts(r, before, after);
      case 'voice':
        if (r.op === 'voice.enroll' && after?.name)
          return here([`${before?.name ?? 'a speaker'} as `, ent(after.name)]);
        if (r.op === 'voice.merge')
          return here([`${before?.source ?? 'a speaker'} into `, ent(after?.target ?? r.target)]);
        return here([ent(r.target)]);
      case 'readings':
        return here([`${after?.deleted ?? 0} old raw readings (their hourly and daily summaries are kept)`]);
      default:
        return here([r.target === null ? '' : /^\d+$/.test(r.target) ? `#${r.target}` : r.target]);
    }
  }

  function entityParts(r: Row, before: Json, after: Json): { parts: ChangePart[]; gone: boolean } {
    switch (r.op) {
      case 'entity.forget':
        return gone([
          String(before?.entity?.name ?? r.target),
          ` (${plural(Number(before?.memories ?? 0), 'memory', 'memories')})`,
        ]);
      case 'entity.merge':
        return here([`${before?.source ?? 'an entity'} into `, ent(r.target)]);
      case 'entity.rename':
        return here([`${before?.name ?? 'an entity'} to `, ent(after?.name ?? r.target)]);
      case 'entity.type':
        return here([ent(r.target), `: ${before?.type ?? '?'} → ${after?.type ?? '?'}`]);
      case 'entity.alias':
        return here([ent(r.target), `: also ${quoted(after?.alias)}`]);
      case 'entity.unalias':
        return here([ent(r.target), `: no longer ${quoted(before?.alias)}`]);
      case 'entity.alias_merge':
        return here([`${before?.folded ?? 'an entity'} into `, ent(r.target)]);
      case 'entity.alias_proposal':
        return here([`${after?.source_name ?? 'an entity'} into `, ent(r.target)]);
      default:
        return here([ent(r.target)]);
    }
  }

  return {
    /** The newest `limit` entries, newest first. */
    recent(limit: number): Change[] {
      return (recent.all(limit) as Row[]).map((r) => ({
        id: r.id,
        ts: r.ts,
        actor: r.actor,
        op: r.op,
        ...describe(r),
      }));
    },
  };
}
