/**
 * The audit log as a household reads it (the dashboard's "Recent changes"): each entry with what it
 * is about, resolved now from the rows it names — a memory's entity and fact, a relation's two ends,
 * a reminder's words — or, when that row is gone, from what the log itself kept (a forgotten
 * memory's `before`, a relation's `relation.add`), so no change is shown as a bare id. Read-only;
 * the door puts the verbs in front (src/http/admin/audit-words.ts). The rows: changes.reader.ts.
 */
import type { Db } from '../../db/open.js';
import { nameKey } from '../../lib/names.js';
import { plural } from '../../lib/plural.js';
import type { AuditRow } from '../audit/audit.repo.js';
import { createChangesReader } from './changes.reader.js';

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
  const read = createChangesReader(db);

  /** An entity by a name it had: linked under its current name while it (or that name as an alias) exists. */
  const ent = (name: unknown): ChangePart => {
    const now = typeof name === 'string' ? read.entityName(nameKey(name)) : undefined;
    return now ? { entity: now, exists: true } : { entity: String(name ?? 'an entity'), exists: false };
  };
  /** The `after` of the row that created what `target` names (`relation.add`, `intention.add`, …). */
  const created = (op: string, target: string | null) =>
    target === null ? null : parse(read.lastOf(op, target)?.after ?? null);
  const gone = (parts: ChangePart[]) => ({ parts, gone: true });
  const here = (parts: ChangePart[]) => ({ parts, gone: false });

  function memoryParts(r: Row, before: Json, after: Json) {
    const m = read.memory(r.target);
    if (m) return here([ent(m.name), ': ', quoted(m.fact)]);
    const forgotten = r.op === 'memory.forget' ? before : parse(read.lastOf('memory.forget', r.target)?.before ?? null);
    if (forgotten?.fact) return gone([ent(forgotten.entity_name), ': ', quoted(forgotten.fact)]);
    const kept = after?.fact ? after : created('memory.add', r.target);
    if (kept?.fact)
      return gone([
        ent(read.entityById(kept.entity_id) ?? read.forgottenName(kept.entity_id) ?? 'an entity since forgotten'),
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
        const rel = read.relation(r.target);
        if (rel) return here([ent(rel.a), ` → ${rel.rel_type.replaceAll('_', ' ')} → `, ent(rel.b)]);
        const add = r.op === 'relation.add' ? after : created('relation.add', r.target);
        return add
          ? gone([ent(add.entity_a), ` → ${String(add.rel_type).replaceAll('_', ' ')} → `, ent(add.entity_b)])
          : gone(['a relation']);
      }
      case 'location': {
        const l = read.location(r.target);
        const kept = l
          ? { entity_name: l.name, container_name: l.container_name }
          : after?.entity_name
            ? after
            : (created('location.add', r.target) ?? created('location.move', r.target));
        if (!kept) return gone(['a place record']);
        return { parts: [ent(kept.entity_name), ' in ', ent(kept.container_name)], gone: !l };
      }
      case 'intention': {
        const i = read.intention(r.target);
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
        const name = read.session(r.op === 'session.turn' ? (after?.session_id ?? null) : r.target);
        return name ? here([ent(name)]) : gone(['someone since forgotten']);
      }
      case 'wm': {
        if (r.op === 'wm.prune') return here([`${after?.deleted ?? 0} finished tasks`]);
        const t = read.task(r.target);
        const name = t?.name ?? created('wm.open', r.target)?.name;
        if (!name) return gone(['a task']);
        return { parts: [quoted(name), ...(t?.entity ? [' for ', ent(t.entity)] : [])], gone: !t };
      }
      case 'schedule': {
        const e = read.schedule(r.target);
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
      return read.recent(limit).map((r) => ({
        id: r.id,
        ts: r.ts,
        actor: r.actor,
        op: r.op,
        ...describe(r),
      }));
    },
  };
}
