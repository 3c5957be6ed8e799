/**
 * A note's `rel:: [[X]]` lines on import (import.ts): a new one relates (checked by the same schema
 * as POST /relate), one the hub ended or whose other end it forgot after the export is a conflict,
 * and a relation no line names is missing (ended only with `delete_missing`).
 */
import { check } from '../../lib/validation.js';
import type { EntityRow } from '../../tiers/entities/entities.repo.js';
import { RelateInput } from '../../tiers/memory/memory.schemas.js';
import { ACTOR, type ImportRun } from './import-report.js';
import { fromHere, type Note } from './import-notes.js';

/** The entity a `[[link]]` names. */
export type TargetOf = (r: { target: string; alias?: string }) => string;

export function applyRelationLines(run: ImportRun, { path, doc }: Note, entity: EntityRow, targetOf: TargetOf): void {
  const { report, history, conflict } = run;
  const { relations } = run.deps;
  const current = relations.list(entity.id, { direction: 'out' });
  const listed = new Set<string>();
  for (const link of doc.relations) {
    const r = { rel_type: link.rel_type, target: targetOf(link) };
    const key = `${r.rel_type}\u0000${r.target.toLowerCase()}`;
    listed.add(key);
    if (current.some((c) => `${c.rel_type}\u0000${c.other.toLowerCase()}` === key)) continue;
    // Ended, or its other end forgotten, after the export: re-adding it would undo that.
    if (
      doc.origin &&
      (history.relationEndedSince(entity.name, r.rel_type, r.target, doc.origin.as_of) ||
        history.nameForgottenSince(r.target, doc.origin.as_of))
    ) {
      conflict({
        file: path,
        line: link.line,
        entity_name: entity.name,
        reason: 'forgotten',
        message: `${r.rel_type} [[${r.target}]] was ended or forgotten in the hub after this note was exported; the line was not applied`,
      });
      continue;
    }
    // The file is a door too: the same schema as POST /relate (e.g. no relation to itself).
    const rel = check(RelateInput, { entity_a: entity.name, entity_b: r.target, rel_type: r.rel_type }, 'relation');
    if (!rel.success) {
      report.errors.push({
        file: path,
        line: link.line,
        message: `relation ${r.rel_type} [[${r.target}]]: ${rel.message}`,
      });
      continue;
    }
    relations.relate(rel.data, ACTOR);
    report.relations_added++;
  }
  // As with memory lines: after a merge into this entity, a relation the note lacks may be the merged one's.
  const mergedSince =
    doc.origin !== undefined &&
    fromHere(doc, entity) &&
    history.mergedIntoSince(entity.id, entity.name, doc.origin.as_of);
  for (const c of current) {
    if (listed.has(`${c.rel_type}\u0000${c.other.toLowerCase()}`)) continue;
    report.relations_missing.push({ entity_a: entity.name, rel_type: c.rel_type, entity_b: c.other });
    if (run.input.delete_missing && !mergedSince) {
      relations.unrelate({ entity_a: entity.name, entity_b: c.other, rel_type: c.rel_type }, ACTOR);
      report.relations_ended++;
    }
  }
}
