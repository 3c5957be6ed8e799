/**
 * The Markdown format of one entity (docs/markdown-sync.md), Obsidian-compatible:
 *
 *   ---
 *   name: Brian
 *   type: person
 *   meta:
 *     age: 41
 *   last_memory_id: 57
 *   hearth:
 *     entity_id: 3
 *     created: 1764465036.41
 *     version: 5f0c2d9a1b7e
 *     as_of: 812
 *   ---
 *   # Brian
 *
 *   ## Memories
 *   - Brian keeps the bedroom at 68°F at night [category:: preference] [trust:: 5] [key:: bedroom_temp_night] [since:: 2026-01-01T21:00:00Z] [source:: manual] ^m31
 *
 *   ## Relations
 *   - spouse_of:: [[Sarah]]
 *
 * `[name:: value]` are Dataview inline fields and `^m31` an Obsidian block id, so a note stays
 * readable and linkable in a vault while each line still names the memory it came from. Pure
 * functions: no I/O, no database.
 */
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { parseIsoWithZone } from '../../lib/datetime.js';
import { EntityName } from '../../lib/schema.js';
import { CATEGORIES } from '../../tiers/memory/memory.schemas.js';

/**
 * One memory line. A field the line lacks is `undefined` (a note from an older Hearth has no `key`,
 * `confidence`, `since` or `source`); `key: null` is an emptied `[key:: ]`, i.e. "no key".
 */
export interface MdMemory {
  id?: number;
  fact: string;
  category?: string;
  trust?: number;
  key?: string | null;
  confidence?: number;
  since?: number;
  source?: string;
  line: number;
}
/** `target` is the linked file's name (Obsidian resolves links by file), `alias` the text shown. */
export interface MdRelation {
  rel_type: string;
  target: string;
  alias?: string;
  line: number;
}
/**
 * Where a note came from (its `hearth:` front matter): the entity's id and creation time in the hub
 * that exported it (together they name one entity of one hub: ids are never reused, and another hub's
 * entity with the same id was created at another time), `version` a hash of the type and meta it was
 * exported with, and `as_of` the hub's last audit id at export. The import compares these with what the
 * hub did since (history.ts), so a stale note never undoes a later change.
 */
export interface NoteOrigin {
  entity_id: number;
  created: number;
  version: string;
  as_of: number;
}

export interface MdEntity {
  name: string;
  origin?: NoteOrigin;
  type?: string;
  meta?: Record<string, unknown>;
  /** Other names (front matter `aliases:`, which Obsidian also resolves links by). */
  aliases?: string[];
  /** The highest memory id when the file was exported: newer memories cannot have been deleted from it. */
  last_memory_id?: number;
  memories: MdMemory[];
  relations: MdRelation[];
  errors: { line: number; message: string }[];
}

export interface ExportEntity {
  name: string;
  origin: NoteOrigin;
  type: string;
  meta: Record<string, unknown>;
  aliases: string[];
  last_memory_id: number;
  memories: {
    id: number;
    fact: string;
    category: string;
    source_trust: number;
    fact_key: string | null;
    confidence: number;
    valid_from: number;
    source: string;
  }[];
  relations: { rel_type: string; target: string; target_file: string }[];
}

/** Whitespace collapsed: the form in which a fact is compared with its line. */
export const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

export function renderEntity(e: ExportEntity): string {
  const fm = {
    name: e.name,
    ...(e.aliases.length && { aliases: e.aliases }),
    type: e.type,
    meta: e.meta,
    last_memory_id: e.last_memory_id,
    hearth: e.origin,
  };
  const front = stringifyYaml(fm, { lineWidth: 0 }).trimEnd();
  const out = ['---', front, '---', `# ${oneLine(e.name)}`, '', '## Memories'];
  for (const m of e.memories) {
    const fields = [`[category:: ${m.category}]`, `[trust:: ${m.source_trust}]`];
    if (m.fact_key !== null) fields.push(`[key:: ${escapeField(m.fact_key)}]`);
    if (m.confidence !== 1) fields.push(`[confidence:: ${m.confidence}]`);
    fields.push(`[since:: ${isoSeconds(m.valid_from)}]`, `[source:: ${escapeField(m.source)}]`);
    out.push(`- ${oneLine(m.fact)} ${fields.join(' ')} ^m${m.id}`);
  }
  out.push('', '## Relations');
  for (const r of e.relations) {
    // An alias cannot hold ] or |; the file name still resolves the link when that file is imported too.
    const link =
      r.target_file === r.target
        ? `[[${r.target}]]`
        : `[[${r.target_file}|${oneLine(r.target).replace(/[\]|]/g, '_')}]]`;
    out.push(`- ${r.rel_type}:: ${link}`);
  }
  return `${out.join('\n')}\n`;
}

/** Epoch seconds as ISO-8601 UTC to the second (Dataview reads it as a date). */
const isoSeconds = (t: number) => new Date(Math.round(t) * 1000).toISOString().replace('.000Z', 'Z');

// A key or source may hold any character: the few that would end the field or the line are
// written %XX (only these are decoded, so a `%` typed in Obsidian stays a `%`).
const ESCAPED = /[%[\]\u0000-\u001f\u007f]/;
const escapeField = (s: string) =>
  s.replace(new RegExp(ESCAPED, 'g'), (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
const unescapeField = (s: string) =>
  s.replace(/%([0-9a-f]{2})/gi, (all, h: string) => {
    const c = String.fromCharCode(parseInt(h, 16));
    return ESCAPED.test(c) ? c : all;
  });

const MEMORY_ITEM = /^[-*+]\s+(.+?)(?:\s+\^m(\d+))?\s*$/;
/** The last inline field of a line, if it is one the format knows. */
const TRAILING_FIELD = /\s+\[(category|trust|key|confidence|since|source)::\s*([^\]]*)\]$/i;

type Field = 'category' | 'trust' | 'key' | 'confidence' | 'since' | 'source';

/** The memory a list line holds, or an error message; `undefined` for a line with no fact. */
function parseMemoryLine(l: string): Omit<MdMemory, 'line'> | string | undefined {
  const item = MEMORY_ITEM.exec(l);
  if (!item) return undefined;
  // Fields are read from the end of the line, in any order; a name seen twice ends them, and what
  // is left (a fact may itself end in "[category:: …]") is the fact, as older Hearth read it.
  let rest = item[1];
  const raw = new Map<Field, string>();
  for (let f = TRAILING_FIELD.exec(rest); f && !raw.has(f[1].toLowerCase() as Field); f = TRAILING_FIELD.exec(rest)) {
    raw.set(f[1].toLowerCase() as Field, f[2].trim());
    rest = rest.slice(0, f.index);
  }
  const fact = oneLine(rest);
  if (!fact) return undefined;
  const out: Omit<MdMemory, 'line'> = { fact: fact.slice(0, 4000), ...(item[2] && { id: Number(item[2]) }) };
  const category = raw.get('category');
  if (category !== undefined) {
    if (!(CATEGORIES as readonly string[]).includes(category))
      return `category: "${category}" is not one of ${CATEGORIES.join(', ')}`;
    out.category = category;
  }
  const trust = raw.get('trust');
  if (trust !== undefined) {
    const t = Number(trust);
    if (!trust || !(Number.isInteger(t) && t >= 1 && t <= 5)) return `trust: "${trust}" is not 1–5`;
    out.trust = t;
  }
  const key = raw.get('key');
  if (key !== undefined) {
    const k = unescapeField(key).trim();
    if (k.length > 100) return `key: "${k.slice(0, 40)}…" is longer than 100 characters`;
    out.key = k || null; // [key:: ] removes the key
  }
  const confidence = raw.get('confidence');
  if (confidence !== undefined) {
    const c = Number(confidence);
    if (!confidence || !(c >= 0 && c <= 1)) return `confidence: "${confidence}" is not a number from 0 to 1`;
    out.confidence = c;
  }
  const since = raw.get('since');
  if (since !== undefined) {
    const ms = parseIsoWithZone(since);
    if (ms === undefined) return `since: "${since}" is not a date-time with a zone, e.g. 2026-01-01T21:00:00Z`;
    out.since = ms / 1000;
  }
  const source = raw.has('source') ? unescapeField(raw.get('source')!).trim().slice(0, 100) : '';
  if (source) out.source = source;
  return out;
}
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
        if (fm.meta && typeof fm.meta === 'object' && !Array.isArray(fm.meta))
          out.meta = fm.meta as Record<string, unknown>;
        // Obsidian writes `aliases:` as a list, or one string.
        const aka = typeof fm.aliases === 'string' ? [fm.aliases] : Array.isArray(fm.aliases) ? fm.aliases : [];
        const names = aka
          .filter((a): a is string | number => typeof a === 'string' || typeof a === 'number')
          .map((a) => String(a).trim());
        if (names.some(Boolean)) out.aliases = names.filter(Boolean).slice(0, 50);
        if (Number.isSafeInteger(fm.last_memory_id)) out.last_memory_id = fm.last_memory_id as number;
        const o = fm.hearth as Record<string, unknown> | undefined;
        if (
          o &&
          typeof o === 'object' &&
          Number.isSafeInteger(o.entity_id) &&
          typeof o.created === 'number' &&
          typeof o.version === 'string' &&
          Number.isSafeInteger(o.as_of)
        )
          out.origin = {
            entity_id: o.entity_id as number,
            created: o.created,
            version: o.version,
            as_of: o.as_of as number,
          };
      } catch (e) {
        out.errors.push({ line: 1, message: `front matter: ${(e as Error).message.split('\n')[0]}` });
      }
      i = end + 1;
    }
  }
  const name = EntityName.safeParse(out.name);
  if (!name.success)
    out.errors.push({ line: 1, message: `name: "${out.name.slice(0, 60)}" is not a valid entity name` });
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
      else
        out.relations.push({
          rel_type: m[1].trim(),
          target: m[2].trim(),
          ...(m[3] && { alias: m[3].trim() }),
          line: i + 1,
        });
      continue;
    }
    const m = parseMemoryLine(l);
    if (typeof m === 'string') out.errors.push({ line: i + 1, message: m });
    else if (m) out.memories.push({ ...m, line: i + 1 });
  }
  return out;
}

/** Windows device names: a file called `con.md` cannot be created there. */
const RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** One safe base name (no extension): no separators, no traversal, no reserved names, ≤ 100 chars. */
export function safeBase(name: string): string {
  let s = name
    .normalize('NFC')
    .replace(/[/\\:*?"<>|#^[\]\u0000-\u001f\u007f]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '');
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
