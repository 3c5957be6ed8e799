/**
 * The Markdown format of one entity (docs/markdown-sync.md), Obsidian-compatible:
 *
 *   ---
 *   name: Brian
 *   type: person
 *   meta:
 *     age: 41
 *   last_memory_id: 57
 *   ---
 *   # Brian
 *
 *   ## Memories
 *   - Brian keeps the bedroom at 68°F at night [category:: preference] [trust:: 5] ^m31
 *
 *   ## Relations
 *   - spouse_of:: [[Sarah]]
 *
 * `[key:: value]` are Dataview inline fields and `^m31` an Obsidian block id, so a note stays
 * readable and linkable in a vault while each line still names the memory it came from. Pure
 * functions: no I/O, no database.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { EntityName } from '../../lib/schema.js';
import { CATEGORIES } from '../../tiers/memory/memory.schemas.js';

export interface MdMemory { id?: number; fact: string; category?: string; trust?: number; line: number }
/** `target` is the linked file's name (Obsidian resolves links by file), `alias` the text shown. */
export interface MdRelation { rel_type: string; target: string; alias?: string; line: number }
export interface MdEntity {
  name: string;
  type?: string;
  meta?: Record<string, unknown>;
  /** The highest memory id when the file was exported: newer memories cannot have been deleted from it. */
  last_memory_id?: number;
  memories: MdMemory[];
  relations: MdRelation[];
  errors: { line: number; message: string }[];
}

export interface ExportEntity {
  name: string;
  type: string;
  meta: Record<string, unknown>;
  last_memory_id: number;
  memories: { id: number; fact: string; category: string; source_trust: number }[];
  relations: { rel_type: string; target: string; target_file: string }[];
}

/** Whitespace collapsed: the form in which a fact is compared with its line. */
export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function renderEntity(e: ExportEntity): string {
  const front = stringifyYaml({ name: e.name, type: e.type, meta: e.meta, last_memory_id: e.last_memory_id }, { lineWidth: 0 }).trimEnd();
  const out = ['---', front, '---', `# ${oneLine(e.name)}`, '', '## Memories'];
  for (const m of e.memories) out.push(`- ${oneLine(m.fact)} [category:: ${m.category}] [trust:: ${m.source_trust}] ^m${m.id}`);
  out.push('', '## Relations');
  for (const r of e.relations) {
    // An alias cannot hold ] or |; the file name still resolves the link when that file is imported too.
    const link = r.target_file === r.target ? `[[${r.target}]]` : `[[${r.target_file}|${oneLine(r.target).replace(/[\]|]/g, '_')}]]`;
    out.push(`- ${r.rel_type}:: ${link}`);
  }
  return `${out.join('\n')}\n`;
}

const MEMORY_LINE = /^[-*+]\s+(.+?)(?:\s+\[category::\s*([^\]]*)\])?(?:\s+\[trust::\s*([^\]]*)\])?(?:\s+\^m(\d+))?\s*$/;
const RELATION_LINE = /^[-*+]\s+([^:\s][^:]*?)::\s*\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|([^\]]+))?\]\]\s*$/;

/** Parses one file; `fallbackName` (the file's base name) names an entity whose front matter does not. */
export function parseEntity(text: string, fallbackName: string): MdEntity {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out: MdEntity = { name: fallbackName, memories: [], relations: [], errors: [] };
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, k) => k > 0 && l.trim() === '---');
    if (end < 0) out.errors.push({ line: 1, message: 'front matter: no closing ---' });
    else {
      try {
        const fm = (parseYaml(lines.slice(1, end).join('\n')) ?? {}) as Record<string, unknown>;
        if (typeof fm !== 'object' || Array.isArray(fm)) throw new Error('not a mapping');
        if (fm.name !== undefined) out.name = String(fm.name);
        if (typeof fm.type === 'string' && fm.type.trim()) out.type = fm.type.trim().slice(0, 50);
        if (fm.meta && typeof fm.meta === 'object' && !Array.isArray(fm.meta)) out.meta = fm.meta as Record<string, unknown>;
        if (Number.isSafeInteger(fm.last_memory_id)) out.last_memory_id = fm.last_memory_id as number;
      } catch (e) {
        out.errors.push({ line: 1, message: `front matter: ${(e as Error).message.split('\n')[0]}` });
      }
      i = end + 1;
    }
  }
  const name = EntityName.safeParse(out.name);
  if (!name.success) out.errors.push({ line: 1, message: `name: "${out.name.slice(0, 60)}" is not a valid entity name` });
  else out.name = name.data;
  let section: 'memories' | 'relations' | null = null;
  for (; i < lines.length; i++) {
    const l = lines[i].trim();
    const heading = /^#{2,6}\s+(.*)$/.exec(l);
    if (heading) {
      const h = heading[1].trim().toLowerCase();
      section = h === 'memories' ? 'memories' : h === 'relations' ? 'relations' : null;
      continue;
    }
    if (!section || !/^[-*+]\s/.test(l)) continue;
    if (section === 'relations') {
      const m = RELATION_LINE.exec(l);
      if (!m) out.errors.push({ line: i + 1, message: 'relation: expected "- rel_type:: [[Other entity]]"' });
      else out.relations.push({ rel_type: m[1].trim(), target: m[2].trim(), ...(m[3] && { alias: m[3].trim() }), line: i + 1 });
      continue;
    }
    const m = MEMORY_LINE.exec(l);
    if (!m || !oneLine(m[1])) continue;
    const category = m[2]?.trim();
    if (category !== undefined && !(CATEGORIES as readonly string[]).includes(category)) {
      out.errors.push({ line: i + 1, message: `category: "${category}" is not one of ${CATEGORIES.join(', ')}` });
      continue;
    }
    const trust = m[3] === undefined ? undefined : Number(m[3].trim());
    if (trust !== undefined && !(Number.isInteger(trust) && trust >= 1 && trust <= 5)) {
      out.errors.push({ line: i + 1, message: `trust: "${m[3]}" is not 1–5` });
      continue;
    }
    out.memories.push({ fact: oneLine(m[1]).slice(0, 4000), category, trust, id: m[4] ? Number(m[4]) : undefined, line: i + 1 });
  }
  return out;
}

/** Windows device names: a file called `con.md` cannot be created there. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** One safe base name (no extension): no separators, no traversal, no reserved names, ≤ 100 chars. */
export function safeBase(name: string): string {
  let s = name.normalize('NFC').replace(/[/\\:*?"<>|#^[\]\u0000-\u001f\u007f]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '');
  if (!s) s = 'entity';
  if (RESERVED.test(s.split('.')[0])) s = `_${s}`;
  return [...s].slice(0, 100).join('');
}

/**
 * File base names for entities, unique ignoring case (macOS and Windows file systems): the lowest
 * id keeps the plain name, any other entity whose name maps to the same file gets ` (id)` appended,
 * so the same database always exports the same file names.
 */
export function fileNames(entities: readonly { id: number; name: string }[]): Map<number, string> {
  const out = new Map<number, string>();
  const taken = new Set<string>();
  const sorted = [...entities].sort((a, b) => a.id - b.id);
  for (const e of sorted) {
    const base = safeBase(e.name);
    if (!taken.has(base.toLowerCase())) {
      taken.add(base.toLowerCase());
      out.set(e.id, base);
    }
  }
  for (const e of sorted) {
    if (out.has(e.id)) continue;
    let n = `${safeBase(e.name)} (${e.id})`;
    while (taken.has(n.toLowerCase())) n = `${n}_`;
    taken.add(n.toLowerCase());
    out.set(e.id, n);
  }
  return out;
}
