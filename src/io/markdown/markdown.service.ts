/**
 * Markdown two-way sync (docs/markdown-sync.md): every entity as one Obsidian-compatible `.md`
 * file, and those files read back (import.ts holds the import rules and their conflicts).
 */
import { strToU8, unzipSync, zipSync } from 'fflate';
import { invalid, notFound } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import type { EntityRow } from '../../tiers/entities/entities.repo.js';
import { fileNames, parseEntity, renderEntity } from './format.js';
import { entityVersion, loadHistory } from './history.js';
import { createMarkdownImport, type ImportDeps } from './import.js';

export type MarkdownDeps = ImportDeps;

export function createMarkdownSync(deps: MarkdownDeps) {
  const { entities, memory, relations, audit } = deps;

  function files(only?: EntityRow): { path: string; name: string; content: string }[] {
    const all = entities.names();
    const names = fileNames(all);
    const list = only ? [only] : all.map((r) => entities.byId(r.id)!);
    const lastId = memory.repo.maxId();
    const asOf = audit.lastId();
    return list.map((e) => {
      const rels = relations.outgoing(e.id);
      const content = renderEntity({
        name: e.name,
        type: e.type,
        meta: e.meta,
        last_memory_id: lastId,
        aliases: entities.aliases(e.id).map((a) => a.alias),
        origin: { entity_id: e.id, created: e.created, version: entityVersion(e.type, e.meta), as_of: asOf },
        memories: memory.repo.ofEntity(e.id),
        relations: rels.map((r) => ({
          rel_type: r.rel_type,
          target: r.b_name,
          target_file: names.get(r.b_id) ?? r.b_name,
        })),
      });
      return { path: `${names.get(e.id)}.md`, name: e.name, content };
    });
  }

  return {
    /** Every entity as `{path, name, content}`; paths are sanitised and unique (see format.ts). */
    exportAll: () => files(),
    /** Every entity's file in one zip; a fixed mtime, so the same database gives the same bytes. */
    exportZip(): Uint8Array {
      const mtime = new Date('2020-01-01T00:00:00Z');
      return zipSync(Object.fromEntries(files().map((f) => [f.path, [strToU8(f.content), { mtime }]])), { level: 6 });
    },
    /** The `.md` files of a zip (as `exportZip` writes it, or a vault zipped by hand), for `importFiles`. */
    filesOfZip(zip: Uint8Array): { path: string; content: string }[] {
      let entries: Record<string, Uint8Array>;
      try {
        entries = unzipSync(zip, {
          filter: (f) => /\.md$/i.test(f.name) && !f.name.split('/').some((p) => p.startsWith('.') || p === '__MACOSX'),
        });
      } catch {
        throw invalid('zip: not a readable zip file');
      }
      const dec = new TextDecoder('utf-8');
      return Object.entries(entries)
        .map(([path, bytes]) => ({ path, content: dec.decode(bytes) }))
        .sort((a, b) => a.path.localeCompare(b.path));
    },
    exportOne(name: string) {
      const e = entities.find(name);
      if (!e) throw notFound(`name: no entity named "${name}"`);
      return files(e)[0];
    },

    importFiles: createMarkdownImport(deps),
    /**
     * Of the given vault notes (not written by this export), those Hearth wrote (a `hearth:` block)
     * for an entity this hub has since forgotten, merged into another, or renamed (the note's name
     * is now an alias of that entity, whose note this export wrote under its new name): `hearth
     * export-markdown` deletes them, so the next import cannot bring the entity back or meet two
     * notes of one entity. A note without the block is the user's and is never named here; nor is
     * one whose name the user changed (a name the hub does not know as the entity's).
     */
    staleNotes(notes: readonly { path: string; content: string }[]): string[] {
      const history = loadHistory(audit, () => undefined);
      return notes
        .filter((n) => {
          const doc = parseEntity(n.content, n.path.replace(/\.md$/i, ''));
          const o = doc.origin;
          if (!o) return false;
          const own = entities.byId(o.entity_id);
          if (!own) return history.entityForgotten(o) || history.mergedAway(o, doc.name) !== undefined;
          const renamed = own.created === o.created && nameKey(own.name) !== nameKey(doc.name);
          return renamed && entities.find(doc.name)?.id === own.id;
        })
        .map((n) => n.path);
    },
  };
}
export type MarkdownSync = ReturnType<typeof createMarkdownSync>;
