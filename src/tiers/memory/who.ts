/**
 * Whom a question is about, read the way the household says it (issue #34): by name, by an alias
 * ("Grandma" for Jadwiga), by a role over the household's relations ("my wife", "our youngest",
 * "Chidi's dad": src/tiers/prospective/roles.ts) and, when recall knows who asks (`speaker`), by
 * "I", "me", "my". Recall searches the question with each of those words replaced by the entity's
 * own name — "when does grandma come to stay" is searched as "when does Jadwiga come to stay",
 * "when is my dentist appointment" (Brian asking) as "when is Brian's dentist appointment" — because
 * a memory is indexed and embedded under its entity's name (text-match.ts `indexText`), never under
 * the words a family uses for them. The named entities feed the `elsewhere` rule (named.ts) and
 * bring their own facts into the candidates (candidates.ts), so a question about Grandma is judged
 * against Jadwiga's facts, and a fact about someone else is never taken for hers.
 *
 * A role that names nobody (no relation, or no speaker for "my") changes nothing: no guess.
 */
import { nameKey } from '../../lib/names.js';
import { type Named, namedInQuery } from './named.js';
import { terms } from './text-match.js';

export interface WhoDeps {
  /** An entity by name or alias. */
  entityNamed: (name: string) => { id: number; name: string; type: string } | undefined;
  /**
   * Role phrases of a text and whom they name (roles.ts `resolveRoles`), also those that name nobody
   * (`names: []`); without it, roles are not read.
   */
  roles?: (text: string, speaker: string | undefined) => { start: number; end: number; names: string[] }[];
  /** Is a word a role or kinship word ("grandma")? An entity of unknown type called by one is a person. */
  roleWord?: (word: string) => boolean;
}

export interface Who {
  /** The entities the question names, with the words that name them in a memory's text. */
  named: Named[];
  /** The question with aliases, roles and the speaker's pronouns replaced by the entities' names. */
  query: string;
  /** The names of the entities the question names (own names), in the order first named. */
  about: string[];
}

interface Edit {
  start: number;
  end: number;
  by: string;
}

/** "I", "me", "my", "mine", "myself" and "I'm"-style contractions, as the speaker's name says them. */
const PRONOUN =
  /(?<![\p{L}\p{N}'’])(I['’]m|I['’]ve|I['’]d|I['’]ll|I|i|me|my|mine|myself)(?![\p{L}\p{N}]|['’][\p{L}])/giu;
const CONTRACTED: Record<string, string> = { "i'm": ' is', "i've": ' has', "i'd": ' would', "i'll": ' will' };

function pronounAs(word: string, name: string): string {
  const w = word.toLowerCase().replace('’', "'");
  if (w === 'my' || w === 'mine') return `${name}'s`;
  return name + (CONTRACTED[w] ?? '');
}

const overlaps = (a: Edit, edits: readonly Edit[]) => edits.some((e) => a.start < e.end && e.start < a.end);

/** Reads who `query` names; `speaker` (a name or alias) is who "I", "me" and "my" are. */
export function readWho(d: WhoDeps, query: string, speaker?: string): Who {
  const text = query.normalize('NFC');
  const me = speaker === undefined ? undefined : d.entityNamed(speaker);
  const edits: Edit[] = [];
  const blocked: Edit[] = [];
  const named = new Map<number, Named>();
  const about: string[] = [];
  const add = (e: { id: number; name: string }, runs: string[][]) => {
    const had = named.get(e.id);
    if (had) had.runs.push(...runs);
    else named.set(e.id, { id: e.id, runs });
    if (!about.includes(e.name)) about.push(e.name);
  };
  // Roles first ("my wife's" is the wife, not the speaker).
  for (const r of d.roles?.(text, me?.name) ?? []) {
    const people = r.names.map((n) => d.entityNamed(n)).filter((e) => e !== undefined);
    if (!people.length) {
      // Named by role but unknown: its "my" is not the speaker, so no pronoun edit inside it.
      blocked.push({ start: r.start, end: r.end, by: '' });
      continue;
    }
    for (const p of people) add(p, [terms(p.name)]);
    edits.push({ start: r.start, end: r.end, by: people.map((p) => p.name).join(' and ') });
  }
  const roleEdits = [...edits];
  // "Grandma", an alias of Jadwiga stored without a type, names a person however it is written.
  const find = (name: string) => {
    const e = d.entityNamed(name);
    return e?.type === 'unknown' && d.roleWord?.(name) ? { ...e, type: 'person' } : e;
  };
  for (const n of namedInQuery(find, text)) {
    // "Chidi's" in "Chidi's dad" names the owner of a role, not whom the question is about.
    if (n.spans?.length && n.spans.every((sp) => overlaps({ ...sp, by: '' }, roleEdits))) continue;
    let own: { id: number; name: string } | undefined;
    for (const s of n.spans ?? []) {
      const whole = text.slice(s.start, s.end);
      const bare = whole.replace(/['’]s$/, '');
      const asWhole = d.entityNamed(whole);
      const e = asWhole ?? d.entityNamed(bare);
      if (e?.id !== n.id) continue;
      own = e;
      if (nameKey(asWhole ? whole : bare) === nameKey(e.name)) continue;
      const edit = { start: s.start, end: s.end, by: e.name + (asWhole ? '' : whole.slice(bare.length)) };
      if (!overlaps(edit, edits)) edits.push(edit);
    }
    if (own) add(own, n.runs);
    else if (!named.has(n.id)) named.set(n.id, { id: n.id, runs: n.runs });
  }
  if (me) {
    let said = false;
    for (const m of text.matchAll(PRONOUN)) {
      const edit = { start: m.index, end: m.index + m[0].length, by: pronounAs(m[0], me.name) };
      if (overlaps(edit, edits) || overlaps(edit, blocked)) continue;
      edits.push(edit);
      said = true;
    }
    if (said) add(me, [terms(me.name)]);
  }
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.by + out.slice(e.end);
  return { named: [...named.values()], query: out, about };
}
