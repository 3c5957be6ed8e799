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
 */
import type { Clock } from '../../lib/clock.js';
import { nameKey } from '../../lib/names.js';
import { plural } from '../../lib/plural.js';
import { check } from '../../lib/validation.js';
import type { AuditRepo } from '../../tiers/audit/audit.repo.js';
import { AliasInput } from '../../tiers/entities/aliases.schemas.js';
import type { AliasesService } from '../../tiers/entities/aliases.service.js';
import type { EntitiesRepo } from '../../tiers/entities/entities.repo.js';
import type { MemoryRow } from '../../tiers/memory/memory.repo.js';
import { RelateInput } from '../../tiers/memory/memory.schemas.js';
import type { MemoryService } from '../../tiers/memory/memory.service.js';
import type { RelationsService } from '../../tiers/memory/relations.service.js';
import { oneLine, parseEntity, type MdEntity, type MdMemory } from './format.js';
import { entityVersion, loadHistory, type History, type RelationById } from './history.js';
import type { ImportMarkdownInput } from './markdown.schemas.js';

export interface ImportDeps {
  clock: Clock;
  entities: EntitiesRepo;
  memory: MemoryService;
  relations: RelationsService;
  audit: AuditRepo;
  /** Adds a note's `aliases:` the hub lacks. */
  aliases: Pick<AliasesService, 'add'>;
  /** Runs `fn` in one write transaction. */
  transaction: <T>(fn: () => T) => T;
}

const ACTOR = 'import' as const;
const sameMeta = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const HOPS = 1000;

export type ConflictReason = 'stale' | 'forgotten' | 'duplicate_file' | 'alias_taken';
export interface Conflict {
  file: string;
  line?: number;
  entity_name: string;
  reason: ConflictReason;
  message: string;
}

type Report = { aliases_added: number; errors: { file: string; line: number; message: string }[] };

export function createMarkdownImport(deps: ImportDeps) {
  const { entities, memory, relations, audit, aliases, transaction } = deps;
  const relationById: RelationById = (id) => relations.endsById(id);

  /**
   * A name the note gives that no entity has becomes an alias; one another entity has is a conflict
   * (merging is the household's call); one removed in the hub after the export stays removed.
   */
  function addAliases(path: string, doc: MdEntity, history: History, report: Report, conflict: (c: Conflict) => void) {
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

  /**
   * The memory a line names and its current version. A line that carries `since` names the memory
   * only if that memory has the same valid_from: ids are per hub, and a note from another hub must
   * not edit whatever memory happens to have its ids here; nor can an id above `maxBefore`, the
   * highest id when the import began (a memory this import stored). `gone` is the id the chain ends
   * in when that memory no longer exists (forgotten after a newer version replaced the named one).
   * `stale`: a version after the named one came from another door than a Markdown import (source
   * `markdown`) — a correction the note cannot know about. Versions an earlier import of a note made
   * are the note's own, so a note edited again without a new export still applies.
   */
  function versionsOf(
    line: MdMemory,
    entityId: number,
    maxBefore: number,
  ): { named?: MemoryRow; head?: MemoryRow; gone?: number; stale?: boolean } {
    const named = line.id === undefined || line.id > maxBefore ? undefined : memory.repo.get(line.id);
    if (
      !named ||
      named.entity_id !== entityId ||
      (line.since !== undefined && Math.round(named.valid_from) !== line.since)
    )
      return {};
    let m: MemoryRow | undefined = named;
    let stale = false;
    for (let hops = 0; m.status === 'superseded' && m.superseded_by && hops < HOPS; hops++) {
      const next: MemoryRow | undefined = memory.repo.get(m.superseded_by);
      if (!next) return { named, gone: m.superseded_by };
      m = next;
      stale ||= m.source !== 'markdown';
    }
    return m.entity_id === entityId && m.status !== 'superseded' ? { named, head: m, stale } : { named };
  }

  return async function importFiles(input: ImportMarkdownInput) {
    const report = {
      files: 0,
      entities_created: 0,
      entities_updated: 0,
      unchanged: 0,
      added: 0,
      superseded: 0,
      reinforced: 0,
      contested: 0,
      missing: [] as { entity_name: string; id: number; fact: string }[],
      deleted: 0,
      newer_than_file: 0,
      aliases_added: 0,
      relations_added: 0,
      relations_missing: [] as { entity_a: string; rel_type: string; entity_b: string }[],
      relations_ended: 0,
      conflicts: [] as Conflict[],
      errors: [] as { file: string; line: number; message: string }[],
    };
    const maxBefore = memory.repo.maxId();
    const history = loadHistory(audit, relationById);
    const conflict = (c: Conflict) => report.conflicts.push(c);
    const parsed: { path: string; content: string; doc: MdEntity }[] = [];
    for (const f of [...input.files].sort((a, b) => a.path.localeCompare(b.path))) {
      const base = f.path.split(/[\\/]/).pop()!.replace(/\.md$/i, '');
      const doc = parseEntity(f.content, base);
      for (const err of doc.errors) report.errors.push({ file: f.path, ...err });
      if (doc.errors.some((e) => e.line === 1)) continue; // no trustworthy name: skip the file
      parsed.push({ path: f.path, content: f.content, doc });
    }
    // Two files naming one entity (a sync tool's "Brian (conflicted copy).md"): which one the
    // household meant cannot be told, and applying both in path order would let one silently undo
    // the other. Identical copies are one note.
    const byEntity = new Map<string, typeof parsed>();
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
    const live = notes.filter(({ path, doc }) => {
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
    // The note came from this hub's entity: its ids and versions mean something here.
    const fromHere = (doc: MdEntity, e: { id: number; created: number }) =>
      doc.origin?.entity_id === e.id && doc.origin.created === e.created;

    // Pass 1: entities, so relations between imported files resolve to their real types.
    for (const { path, doc } of live) {
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
    // Pass 1b: a note's other names (`aliases:`, as Obsidian reads them) that the hub lacks.
    for (const { path, doc } of live) addAliases(path, doc, history, report, conflict);
    // [[File]] names a file: the entity that file holds when it is imported too, else the alias or the file name.
    const byFile = new Map(
      live.map(({ path, doc }) => [path.split(/[\\/]/).pop()!.replace(/\.md$/i, '').toLowerCase(), doc.name]),
    );
    const targetOf = (r: { target: string; alias?: string }) =>
      byFile.get(r.target.toLowerCase()) ?? r.alias ?? r.target;
    // Pass 2: memory lines and relations, file by file.
    for (const { path, doc } of live) {
      report.files++;
      const entity = entities.get(doc.name);
      const here = fromHere(doc, entity);
      const seen = new Set<number>();
      const versions = doc.memories.map((line) => versionsOf(line, entity.id, maxBefore));
      // A key holds one value: when several lines give the same key (a new line added under an old
      // one that was not deleted), the last one is the value and the others are left alone, so a
      // second import does not flip the key back. A line without a key field keeps its memory's.
      const keys = doc.memories.map((line, i) =>
        line.key === undefined ? (versions[i].head?.fact_key ?? null) : line.key,
      );
      const lastOfKey = new Map(keys.flatMap((k, i) => (k ? [[k, i] as const] : [])));
      const kept = new Set<number>();
      for (const [i, line] of doc.memories.entries()) {
        const { named, head: byId, gone, stale } = versions[i];
        const key = keys[i];
        const at = { file: path, line: line.line, entity_name: entity.name };
        // Forgotten in the hub after the export (the line still names it): not brought back.
        const forgotten =
          gone ??
          (!named &&
          here &&
          line.id !== undefined &&
          line.id <= maxBefore &&
          history.memoryForgotten(line.id, entity.id, line.since)
            ? line.id
            : undefined);
        if (forgotten !== undefined) {
          conflict({
            ...at,
            reason: 'forgotten',
            message: `memory ${forgotten} was forgotten in the hub after this note was exported; the line was not applied — delete it, or remove its ^m${line.id} to add it again`,
          });
          continue;
        }
        if (key && lastOfKey.get(key) !== i) {
          if (byId) kept.add(byId.id); // not missing: its line is there
          const later = doc.memories[lastOfKey.get(key)!].line;
          report.errors.push({
            file: path,
            line: line.line,
            message: `key: "${key}" is given again on line ${later}, which wins (a key holds one value); this line was left as it is`,
          });
          continue;
        }
        if (byId && seen.has(byId.id)) continue; // the same memory listed twice
        // The memory a line names: by its ^m id, else (a note from another hub, or hand-written) an
        // active memory with the same text. No line field means "as stored" (older notes had no key).
        const head =
          byId ?? memory.repo.ofEntity(entity.id).find((m) => oneLine(m.fact) === line.fact && !seen.has(m.id));
        if (head) {
          seen.add(head.id);
          // A line matched by text alone keeps the memory's category and trust (as before keys
          // were exported); its key, when it gives one, is the key.
          const category = (byId && line.category) || head.category;
          const trust = (byId && line.trust) || head.source_trust;
          const fact_key = line.key === undefined ? head.fact_key : line.key;
          if (
            oneLine(head.fact) === line.fact &&
            category === head.category &&
            trust === head.source_trust &&
            fact_key === head.fact_key
          ) {
            report.unchanged++;
            continue;
          }
          // The line names an older version than the hub's current one, changed after the export
          // through another door (a correction made on a phone): this line must not replace it.
          if (byId && named && stale) {
            conflict({
              ...at,
              reason: 'stale',
              message: `memory ${named.id} was changed in the hub after this note was exported (now ${byId.id}: "${oneLine(byId.fact).slice(0, 80)}"); the line was not applied — export again and redo the edit`,
            });
            continue;
          }
          try {
            const r = await memory.revise(
              head.id,
              { fact: line.fact, category, source_trust: trust, source: 'markdown', fact_key },
              ACTOR,
            );
            seen.add(r.id);
            if (r.status === 'contested') report.contested++;
            else report.superseded++;
          } catch (e) {
            report.errors.push({ file: path, line: line.line, message: (e as Error).message });
          }
          continue;
        }
        try {
          const r = await memory.remember(
            {
              entity_name: entity.name,
              fact: line.fact,
              category: (line.category ?? 'general') as never,
              confidence: line.confidence ?? 1,
              source: line.source ?? 'markdown',
              source_trust: line.trust ?? 5,
              entity_type: entity.type,
              ...(line.key && { fact_key: line.key }),
              ...(line.since !== undefined && { valid_from: line.since }),
            },
            ACTOR,
          );
          seen.add(r.id);
          report[r.action]++;
        } catch (e) {
          report.errors.push({ file: path, line: line.line, message: (e as Error).message });
        }
      }
      for (const m of memory.repo.ofEntity(entity.id)) {
        if (seen.has(m.id) || kept.has(m.id)) continue;
        // stored after the export: the file never had a line for it to delete
        if (doc.last_memory_id !== undefined && m.id > doc.last_memory_id) {
          report.newer_than_file++;
          continue;
        }
        report.missing.push({ entity_name: entity.name, id: m.id, fact: m.fact });
        if (input.delete_missing) {
          memory.forget({ memory_id: m.id }, ACTOR);
          report.deleted++;
        }
      }
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
      for (const c of current) {
        if (listed.has(`${c.rel_type}\u0000${c.other.toLowerCase()}`)) continue;
        report.relations_missing.push({ entity_a: entity.name, rel_type: c.rel_type, entity_b: c.other });
        if (input.delete_missing) {
          relations.unrelate({ entity_a: entity.name, entity_b: c.other, rel_type: c.rel_type }, ACTOR);
          report.relations_ended++;
        }
      }
    }
    const r = report;
    const result =
      `Imported ${r.files} files: ${r.entities_created} entities created, ${r.entities_updated} updated; ` +
      `${r.added} memories added, ${r.superseded} superseded, ${r.reinforced} reinforced, ${r.contested ? `${r.contested} contested, ` : ''}${r.unchanged} unchanged; ` +
      `${r.missing.length} missing from the files (${input.delete_missing ? `${r.deleted} forgotten` : 'kept; delete_missing / --delete-missing forgets them'})` +
      `${r.newer_than_file ? `, ${r.newer_than_file} newer than the files (kept)` : ''}; ` +
      `${r.relations_added} relations added, ${r.relations_missing.length} missing${r.aliases_added ? `; ${plural(r.aliases_added, 'other name')} added` : ''}${r.errors.length ? `; ${r.errors.length} lines skipped` : ''}` +
      `${r.conflicts.length ? `; ${r.conflicts.length} conflicts, not applied:\n${r.conflicts.map((c) => `  ${c.file}${c.line ? `:${c.line}` : ''}: ${c.message}`).join('\n')}` : ''}`;
    return { result, ...report };
  };
}
