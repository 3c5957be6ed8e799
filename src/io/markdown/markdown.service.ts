/**
 * Markdown two-way sync (docs/markdown-sync.md): every entity as one Obsidian-compatible `.md`
 * file, and those files read back.
 *
 * Import rules, applied through the ordinary services so every change is audited (actor `import`):
 * - a line whose `^m<id>` (and `since`, when given) names a current memory of this entity (or an
 *   older version of one) and whose text, category, trust or key differs → a new version that
 *   supersedes it (`memory.revise`, which applies remember's key rule against another holder);
 * - a line without an id (or with an id that is not this entity's) → `remember` with the line's key,
 *   confidence, since and source, unless the entity already has an active memory with the same
 *   text (which then only takes the line's key, if it differs);
 * - an active memory that no line names → reported as missing; forgotten only with `delete_missing`
 *   (one stored after the export — id above the file's `last_memory_id` — is never missing);
 * - relations likewise: a new `rel:: [[X]]` line relates, a missing one is reported (ended with
 *   `delete_missing`).
 * Importing the same files twice changes nothing the second time.
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import type { AuditRepo } from '../../tiers/audit/audit.repo.js';
import type { EntitiesRepo, EntityRow } from '../../tiers/entities/entities.repo.js';
import type { MemoryService } from '../../tiers/memory/memory.service.js';
import type { RelationsService } from '../../tiers/memory/relations.service.js';
import { RelateInput } from '../../tiers/memory/memory.schemas.js';
import { check } from '../../lib/validation.js';
import { fileNames, oneLine, parseEntity, renderEntity, type MdEntity, type MdMemory } from './format.js';
import type { ImportMarkdownInput } from './markdown.schemas.js';

export interface MarkdownDeps { db: Db; clock: Clock; entities: EntitiesRepo; memory: MemoryService; relations: RelationsService; audit: AuditRepo }

const ACTOR = 'import' as const;
const sameMeta = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function createMarkdownSync(deps: MarkdownDeps) {
  const { db, clock, entities, memory, relations, audit } = deps;
  const allEntities = db.prepare('SELECT id, name FROM entities ORDER BY id');
  const outgoing = db.prepare('SELECT r.rel_type, b.id AS b_id, b.name AS b_name FROM relations r JOIN entities b ON b.id = r.entity_b WHERE r.entity_a = ? AND r.valid_until IS NULL ORDER BY r.id');
  const maxMemoryId = db.prepare('SELECT max(id) AS n FROM memories');
  const updateEntity = db.prepare('UPDATE entities SET type = ?, meta = ?, updated = ? WHERE id = ?');

  function files(only?: EntityRow): { path: string; name: string; content: string }[] {
    const names = fileNames(allEntities.all() as { id: number; name: string }[]);
    const list = only ? [only] : (allEntities.all() as { id: number }[]).map((r) => entities.byId(r.id)!);
    const lastId = (maxMemoryId.get() as { n: number | null }).n ?? 0;
    return list.map((e) => {
      const rels = outgoing.all(e.id) as { rel_type: string; b_id: number; b_name: string }[];
      const content = renderEntity({
        name: e.name, type: e.type, meta: e.meta, last_memory_id: lastId,
        memories: memory.repo.ofEntity(e.id),
        relations: rels.map((r) => ({ rel_type: r.rel_type, target: r.b_name, target_file: names.get(r.b_id) ?? r.b_name })),
      });
      return { path: `${names.get(e.id)}.md`, name: e.name, content };
    });
  }

  /**
   * The current (active or contested) version of the memory a line names, if it is this entity's:
   * supersession is followed. A line that carries `since` names the memory only if that memory has
   * the same valid_from: ids are per hub, and a note from another hub must not edit whatever
   * memory happens to have its ids here; nor can an id above `maxBefore`, the highest id when the
   * import began (a memory this import stored).
   */
  function headOf(line: MdMemory, entityId: number, maxBefore: number) {
    let m = line.id === undefined || line.id > maxBefore ? undefined : memory.repo.get(line.id);
    if (m && line.since !== undefined && Math.round(m.valid_from) !== line.since) return undefined;
    for (let hops = 0; m && m.status === 'superseded' && m.superseded_by && hops < 1000; hops++) m = memory.repo.get(m.superseded_by);
    return m && m.entity_id === entityId && m.status !== 'superseded' ? m : undefined;
  }

  return {
    /** Every entity as `{path, name, content}`; paths are sanitised and unique (see format.ts). */
    exportAll: () => files(),
    exportOne(name: string) {
      const e = entities.find(name);
      if (!e) throw notFound(`name: no entity named "${name}"`);
      return files(e)[0];
    },

    async importFiles(input: ImportMarkdownInput) {
      const report = {
        files: 0, entities_created: 0, entities_updated: 0, unchanged: 0, added: 0, superseded: 0, reinforced: 0, contested: 0,
        missing: [] as { entity_name: string; id: number; fact: string }[], deleted: 0, newer_than_file: 0,
        relations_added: 0, relations_missing: [] as { entity_a: string; rel_type: string; entity_b: string }[], relations_ended: 0,
        errors: [] as { file: string; line: number; message: string }[],
      };
      const maxBefore = (maxMemoryId.get() as { n: number | null }).n ?? 0;
      const parsed: { path: string; doc: MdEntity }[] = [];
      for (const f of [...input.files].sort((a, b) => a.path.localeCompare(b.path))) {
        const base = f.path.split(/[\\/]/).pop()!.replace(/\.md$/i, '');
        const doc = parseEntity(f.content, base);
        for (const err of doc.errors) report.errors.push({ file: f.path, ...err });
        if (doc.errors.some((e) => e.line === 1)) continue; // no trustworthy name: skip the file
        parsed.push({ path: f.path, doc });
      }
      // Pass 1: entities, so relations between imported files resolve to their real types.
      for (const { doc } of parsed) {
        db.transaction(() => {
          const e = entities.ensure(doc.name, doc.type ?? 'person');
          if (e.created_now) report.entities_created++;
          const type = doc.type ?? e.type;
          const meta = doc.meta ?? e.meta;
          if (e.created_now ? doc.meta !== undefined : type !== e.type || !sameMeta(meta, e.meta)) {
            updateEntity.run(type, JSON.stringify(meta), clock.now(), e.id);
            if (!e.created_now) report.entities_updated++;
            audit.record(ACTOR, 'entity.update', e.name, e.created_now ? null : { type: e.type, meta: e.meta }, { type, meta });
          }
        })();
      }
      // [[File]] names a file: the entity that file holds when it is imported too, else the alias or the file name.
      const byFile = new Map(parsed.map(({ path, doc }) => [path.split(/[\\/]/).pop()!.replace(/\.md$/i, '').toLowerCase(), doc.name]));
      const targetOf = (r: { target: string; alias?: string }) => byFile.get(r.target.toLowerCase()) ?? r.alias ?? r.target;
      // Pass 2: memory lines and relations, file by file.
      for (const { path, doc } of parsed) {
        report.files++;
        const entity = entities.get(doc.name);
        const seen = new Set<number>();
        // A key holds one value: when several lines give the same key (a new line added under an old
        // one that was not deleted), the last one is the value and the others are left alone, so a
        // second import does not flip the key back. A line without a key field keeps its memory's.
        const keys = doc.memories.map((line) => (line.key === undefined ? headOf(line, entity.id, maxBefore)?.fact_key ?? null : line.key));
        const lastOfKey = new Map(keys.flatMap((k, i) => (k ? [[k, i] as const] : [])));
        const kept = new Set<number>();
        for (const [i, line] of doc.memories.entries()) {
          // The memory a line names: by its ^m id, else (a note from another hub, or hand-written) an
          // active memory with the same text. No line field means "as stored" (older notes had no key).
          const byId = headOf(line, entity.id, maxBefore);
          const key = keys[i];
          if (key && lastOfKey.get(key) !== i) {
            if (byId) kept.add(byId.id); // not missing: its line is there
            const later = doc.memories[lastOfKey.get(key)!].line;
            report.errors.push({ file: path, line: line.line, message: `key: "${key}" is given again on line ${later}, which wins (a key holds one value); this line was left as it is` });
            continue;
          }
          if (byId && seen.has(byId.id)) continue; // the same memory listed twice
          const head = byId ?? memory.repo.ofEntity(entity.id).find((m) => oneLine(m.fact) === line.fact && !seen.has(m.id));
          if (head) {
            seen.add(head.id);
            // A line matched by text alone keeps the memory's category and trust (as before keys
            // were exported); its key, when it gives one, is the key.
            const category = (byId && line.category) || head.category;
            const trust = (byId && line.trust) || head.source_trust;
            const fact_key = line.key === undefined ? head.fact_key : line.key;
            if (oneLine(head.fact) === line.fact && category === head.category && trust === head.source_trust && fact_key === head.fact_key) {
              report.unchanged++;
              continue;
            }
            try {
              const r = await memory.revise(head.id, { fact: line.fact, category, source_trust: trust, source: 'markdown', fact_key }, ACTOR);
              seen.add(r.id);
              if (r.status === 'contested') report.contested++;
              else report.superseded++;
            } catch (e) {
              report.errors.push({ file: path, line: line.line, message: (e as Error).message });
            }
            continue;
          }
          try {
            const r = await memory.remember({
              entity_name: entity.name, fact: line.fact, category: (line.category ?? 'general') as never, confidence: line.confidence ?? 1,
              source: line.source ?? 'markdown', source_trust: line.trust ?? 5, entity_type: entity.type,
              ...(line.key && { fact_key: line.key }), ...(line.since !== undefined && { valid_from: line.since }),
            }, ACTOR);
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
          // The file is a door too: the same schema as POST /relate (e.g. no relation to itself).
          const rel = check(RelateInput, { entity_a: entity.name, entity_b: r.target, rel_type: r.rel_type }, 'relation');
          if (!rel.success) {
            report.errors.push({ file: path, line: link.line, message: `relation ${r.rel_type} [[${r.target}]]: ${rel.message}` });
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
      const result = `Imported ${r.files} files: ${r.entities_created} entities created, ${r.entities_updated} updated; ` +
        `${r.added} memories added, ${r.superseded} superseded, ${r.reinforced} reinforced, ${r.contested ? `${r.contested} contested, ` : ''}${r.unchanged} unchanged; ` +
        `${r.missing.length} missing from the files (${input.delete_missing ? `${r.deleted} forgotten` : 'kept; delete_missing / --delete-missing forgets them'})` +
        `${r.newer_than_file ? `, ${r.newer_than_file} newer than the files (kept)` : ''}; ` +
        `${r.relations_added} relations added, ${r.relations_missing.length} missing${r.errors.length ? `; ${r.errors.length} lines skipped` : ''}`;
      return { result, ...report };
    },
  };
}
export type MarkdownSync = ReturnType<typeof createMarkdownSync>;
