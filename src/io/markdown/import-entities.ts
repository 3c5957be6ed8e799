/**
 * A note's front matter on import (import.ts): its entity's type and meta, and its other names
 * (`aliases:`, as Obsidian reads them) that the hub lacks.
 */
import { AliasInput } from '../../tiers/entities/aliases.schemas.js';
import { entityVersion } from './history.js';
import { ACTOR, type ImportRun } from './import-report.js';
import { fromHere, type Note } from './import-notes.js';

const sameMeta = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The note's entity, created when the hub lacks it, with the note's type and meta, in one transaction. */
export function applyFrontMatter(run: ImportRun, { path, doc }: Note): void {
  const { report, conflict } = run;
  const { entities, audit, transaction } = run.deps;
  transaction(() => {
    const e = entities.ensure(doc.name, doc.type ?? 'person');
    if (e.created_now) report.entities_created++;
    const type = doc.type ?? e.type;
    const meta = doc.meta ?? e.meta;
    if (e.created_now ? doc.meta === undefined : type === e.type && sameMeta(meta, e.meta)) return;
    // Front matter over a type/meta changed in the hub since the export: the hub's is newer.
    if (!e.created_now && fromHere(doc, e) && entityVersion(e.type, e.meta) !== doc.origin!.version) {
      conflict({
        file: path,
        line: 1,
        entity_name: e.name,
        reason: 'stale',
        message: `type/meta of ${e.name} changed in the hub after this note was exported; the note's were not applied — export again and redo the edit`,
      });
      return;
    }
    entities.setTypeMeta(e.id, type, meta);
    if (!e.created_now) report.entities_updated++;
    audit.record(ACTOR, 'entity.update', e.name, e.created_now ? null : { type: e.type, meta: e.meta }, {
      type,
      meta,
    });
  });
}

/**
 * A name the note gives that no entity has becomes an alias; one another entity has is a conflict
 * (merging is the household's call); one removed in the hub after the export stays removed.
 */
export function addAliases(run: ImportRun, { path, doc }: Note): void {
  const { report, history, conflict } = run;
  const { entities, aliases } = run.deps;
  const e = entities.find(doc.name);
  if (!e) return;
  for (const alias of doc.aliases ?? []) {
    const other = entities.find(alias);
    if (other?.id === e.id) continue;
    if (other) {
      conflict({
        file: path,
        line: 1,
        entity_name: e.name,
        reason: 'alias_taken',
        message: `"${alias}" is a name of ${other.name}; the alias was not added — merge the two, or remove it from the note`,
      });
      continue;
    }
    if (doc.origin && history.aliasRemovedSince(alias, doc.origin.as_of)) {
      conflict({
        file: path,
        line: 1,
        entity_name: e.name,
        reason: 'stale',
        message: `"${alias}" was removed as a name of ${e.name} in the hub after this note was exported; it was not added back`,
      });
      continue;
    }
    const input = AliasInput.safeParse({ entity_name: e.name, alias });
    if (!input.success) {
      report.errors.push({ file: path, line: 1, message: `aliases: "${alias.slice(0, 60)}" is not a valid name` });
      continue;
    }
    aliases.add(input.data, ACTOR);
    report.aliases_added++;
  }
}
