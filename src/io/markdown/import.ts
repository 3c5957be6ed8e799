/**
 * Reading Markdown notes back (docs/markdown-sync.md "Import rules"), through the ordinary services
 * so every change is audited (actor `import`):
 * - a line whose `^m<id>` (and `since`, when given) names a current memory of this entity and whose
 *   text, category, trust or key differs → a new version that supersedes it (`memory.revise`);
 * - a line without an id (or with an id that is not this entity's) → `remember` with the line's key,
 *   confidence, since and source, unless the entity already has an active memory with the same text;
 * - an active memory that no line names → reported as missing; forgotten only with `delete_missing`
 *   (one stored after the export — id above the file's `last_memory_id` — is never missing);
 * - relations likewise: a new `rel:: [[X]]` line relates, a missing one is reported.
 * Conflicts are reported and change nothing (SECURITY.md "Markdown sync"): a line naming a version
 * the hub has since replaced (stale), front matter over type/meta changed in the hub since, a note of
 * an entity, memory or relation the hub forgot or ended after the export, two files naming one entity.
 * Importing the same files twice changes nothing the second time.
 *
 * The passes: which notes apply (import-notes.ts), front matter and aliases (import-entities.ts),
 * memory lines (import-memories.ts), relation lines (import-relations.ts); the report, import-report.ts.
 */
import { loadHistory, type RelationById } from './history.js';
import { addAliases, applyFrontMatter } from './import-entities.js';
import { applyMemoryLines } from './import-memories.js';
import { fromHere, selectNotes } from './import-notes.js';
import { applyRelationLines } from './import-relations.js';
import { type Conflict, fileBase, type ImportDeps, type ImportRun, newReport, summary } from './import-report.js';
import type { ImportMarkdownInput } from './markdown.schemas.js';

export type { Conflict, ConflictReason, ImportDeps } from './import-report.js';

export function createMarkdownImport(deps: ImportDeps) {
  const { entities, memory, relations, audit } = deps;
  const relationById: RelationById = (id) => relations.endsById(id);

  return async function importFiles(input: ImportMarkdownInput) {
    const report = newReport();
    const run: ImportRun = {
      deps,
      input,
      report,
      maxBefore: memory.repo.maxId(),
      history: loadHistory(audit, relationById),
      conflict: (c: Conflict) => report.conflicts.push(c),
    };
    const live = selectNotes(run);
    // Pass 1: entities, so relations between imported files resolve to their real types.
    for (const note of live) applyFrontMatter(run, note);
    // Pass 1b: a note's other names (`aliases:`, as Obsidian reads them) that the hub lacks.
    for (const note of live) addAliases(run, note);
    // [[File]] names a file: the entity that file holds when it is imported too, else the alias or the file name.
    const byFile = new Map(live.map(({ path, doc }) => [fileBase(path).toLowerCase(), doc.name]));
    const targetOf = (r: { target: string; alias?: string }) =>
      byFile.get(r.target.toLowerCase()) ?? r.alias ?? r.target;
    // Pass 2: memory lines and relations, file by file.
    for (const note of live) {
      report.files++;
      const entity = entities.get(note.doc.name);
      await applyMemoryLines(run, note, entity, fromHere(note.doc, entity));
      applyRelationLines(run, note, entity, targetOf);
    }
    return { result: summary(report, input.delete_missing), ...report };
  };
}
