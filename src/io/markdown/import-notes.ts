/**
 * Which of the files an import applies (import.ts): each parsed, in path order; a file without a
 * trustworthy name is skipped, two files naming one entity are a conflict, and a note of an entity
 * the hub forgot after the export is a conflict — applying it would bring the entity back.
 */
import { nameKey } from '../../lib/names.js';
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
  // Two files naming one entity (a sync tool's "Brian (conflicted copy).md"): which one the
  // household meant cannot be told, and applying both in path order would let one silently undo
  // the other. Identical copies are one note.
  const byEntity = new Map<string, Note[]>();
  for (const p of parsed) byEntity.set(nameKey(p.doc.name), [...(byEntity.get(nameKey(p.doc.name)) ?? []), p]);
  const notes = parsed.filter((p) => {
    const same = byEntity.get(nameKey(p.doc.name))!;
    if (same.length < 2) return true;
    if (same.every((o) => o.content === same[0].content)) return p === same[0];
    const others = same
      .filter((o) => o !== p)
      .map((o) => o.path)
      .join(', ');
    conflict({
      file: p.path,
      entity_name: p.doc.name,
      reason: 'duplicate_file',
      message: `${p.doc.name} is also named by ${others}; none of them was applied — merge them into one note and import again`,
    });
    return false;
  });
  // A note of an entity this hub forgot after the export: importing it would bring it back.
  return notes.filter(({ path, doc }) => {
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
