/**
 * Which of the files an import applies (import.ts): each parsed, in path order; a file without a
 * trustworthy name is skipped, two files naming one entity are a conflict, and a note of an entity
 * the hub forgot after the export is a conflict — applying it would bring the entity back.
 */
import { nameKey } from '../../lib/names.js';
import type { EntityRow } from '../../tiers/entities/entities.repo.js';
import { parseEntity, type MdEntity } from './format.js';
import { fileBase, type ImportRun } from './import-report.js';

export interface Note {
  path: string;
  content: string;
  doc: MdEntity;
}

/** The note came from this hub's entity: its ids and versions mean something here. */
export const fromHere = (doc: MdEntity, e: { id: number; created: number }) =>
  doc.origin?.entity_id === e.id && doc.origin.created === e.created;

export function selectNotes(run: ImportRun): Note[] {
  const { report, history, conflict } = run;
  const { entities } = run.deps;
  const parsed: Note[] = [];
  for (const f of [...run.input.files].sort((a, b) => a.path.localeCompare(b.path))) {
    const doc = parseEntity(f.content, fileBase(f.path));
    for (const err of doc.errors) report.errors.push({ file: f.path, ...err });
    if (doc.errors.some((e) => e.line === 1)) continue; // no trustworthy name: skip the file
    parsed.push({ path: f.path, content: f.content, doc });
  }
  // Two notes that resolve to one entity — by name, by an alias, or by the hub entity their
  // `hearth:` block names (a sync tool's "Brian (conflicted copy).md", the note of an entity merged
  // into it or renamed since): which one the household meant cannot be told, and applying both
  // would let one silently undo the other (or forget, with delete_missing, what the other lists).
  // Identical copies are one note.
  const groups = groupByEntity(run, parsed);
  const notes = parsed.filter((p) => {
    const same = groups.get(p)!;
    if (same.length < 2) return true;
    if (same.every((o) => o.content === same[0].content)) return p === same[0];
    const others = same
      .filter((o) => o !== p)
      .map((o) => o.path)
      .join(', ');
    const e = entityOf(run, p);
    const merged =
      p.doc.origin &&
      entities.byId(p.doc.origin.entity_id) === undefined &&
      history.mergedAway(p.doc.origin, p.doc.name);
    const means =
      e && nameKey(e.name) !== nameKey(p.doc.name)
        ? ` (now ${merged ? 'merged into' : 'another name of'} ${e.name})`
        : '';
    conflict({
      file: p.path,
      entity_name: p.doc.name,
      reason: 'duplicate_file',
      message: `${p.doc.name}${means} is also named by ${others}; none of them was applied — keep one note per entity (hearth export-markdown removes notes of merged or renamed entities) and import again`,
    });
    return false;
  });
  // A note of an entity merged into another after the export: its lines now name the target's
  // memories, and what it lacks of the target's would be missing.
  const unmerged = notes.filter(({ path, doc }) => {
    if (!doc.origin || entities.byId(doc.origin.entity_id)) return true;
    const m = history.mergedAway(doc.origin, doc.name);
    if (!m) return true;
    const into = (m.target_id !== undefined && entities.byId(m.target_id)?.name) || m.target;
    conflict({
      file: path,
      entity_name: doc.name,
      reason: 'merged',
      message: `${doc.name} was merged into ${into} in the hub after this note was exported; the note was not applied — edit ${into}'s note instead (hearth export-markdown removes this one)`,
    });
    return false;
  });
  // A note of an entity this hub forgot after the export: importing it would bring it back.
  return unmerged.filter(({ path, doc }) => {
    if (!doc.origin || !history.entityForgotten(doc.origin)) return true;
    const here = entities.find(doc.name);
    if (here && here.id === doc.origin.entity_id) return true;
    conflict({
      file: path,
      entity_name: doc.name,
      reason: 'forgotten',
      message: `${doc.name} was forgotten in the hub after this note was exported; the note was not applied — delete it, or remove its hearth: block to add it again`,
    });
    return false;
  });
}

/** The hub entity a note means: its `hearth:` entity when that is still this hub's, else what its name names. */
function entityOf(run: ImportRun, { doc }: Note): EntityRow | undefined {
  const { entities } = run.deps;
  const own = doc.origin && entities.byId(doc.origin.entity_id);
  if (own && fromHere(doc, own)) return own;
  return entities.find(doc.name);
}

/**
 * Notes grouped by the entity they resolve to: notes sharing a name key, a named entity, or the
 * entity of their `hearth:` block (or the one it was merged into) are one group (union-find).
 */
function groupByEntity(run: ImportRun, notes: Note[]): Map<Note, Note[]> {
  const { entities } = run.deps;
  const parent = notes.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  const firstWith = new Map<string, number>();
  notes.forEach((n, i) => {
    const keys = [`n:${nameKey(n.doc.name)}`];
    const named = entities.find(n.doc.name);
    if (named) keys.push(`e:${named.id}`);
    const o = n.doc.origin;
    if (o) {
      const own = entities.byId(o.entity_id);
      if (own && fromHere(n.doc, own)) keys.push(`e:${own.id}`);
      const m = own ? undefined : run.history.mergedAway(o, n.doc.name);
      const into = m && (m.target_id !== undefined ? entities.byId(m.target_id) : entities.find(m.target));
      if (into) keys.push(`e:${into.id}`);
    }
    for (const k of keys) {
      const j = firstWith.get(k);
      if (j === undefined) firstWith.set(k, i);
      else parent[root(i)] = root(j);
    }
  });
  const groups = new Map<number, Note[]>();
  notes.forEach((n, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), n]));
  return new Map(notes.map((n, i) => [n, groups.get(root(i))!]));
}
