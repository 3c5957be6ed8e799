/**
 * People named by role or relation (issue #25): "my wife", "our youngest", "Chidi's dad" are resolved
 * through the household's relations, so a text and a trigger that name the same person differently
 * still meet. The possessor is the speaker for "my"/"our" (the check's `entity_name`, or a trigger's
 * owner) and a known entity for "X's". The role is a path over current relations:
 *   wife, husband, partner → spouse_of / married_to / partner_of, either way
 *   mum, dad, parents      → child_of out or parent_of in (mother_of / father_of preferred when set)
 *   son, daughter, kids    → the reverse; "youngest" / "eldest" → the child with the lowest / highest
 *                            age (entity meta `age`, or `born` as a year or date), only when every
 *                            child has one and there are two or more
 *   brother, sister        → sibling_of; grandad, gran → grandparent_of in or a parent's parent;
 *   neighbour, friend      → neighbour_of / neighbor_of, friend_of, either way
 * A role that resolves to nobody leaves the text as it is (no guess).
 */
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { RelationsService } from '../memory/relations.service.js';
import { triggerTerms } from './trigger-match.js';

/** One kind of edge: current relations of these types, out of (or into, or either) the entity at hand. */
type Edge = { types: readonly string[]; dir: 'out' | 'in' | 'both' };
/** A hop follows any of its edges; a chain is hops in turn; a role's chains are tried in order (the first that finds someone wins). */
type Hop = Edge[];
type Chains = Hop[][];

const SPOUSE: Hop = [{ types: ['spouse_of', 'married_to', 'partner_of', 'wife_of', 'husband_of'], dir: 'both' }];
const UP: Hop = [
  { types: ['child_of', 'son_of', 'daughter_of'], dir: 'out' },
  { types: ['parent_of', 'mother_of', 'father_of'], dir: 'in' },
];
const DOWN: Hop = [
  { types: ['parent_of', 'mother_of', 'father_of'], dir: 'out' },
  { types: ['child_of', 'son_of', 'daughter_of'], dir: 'in' },
];

const ROLES: Record<string, Chains> = {};
const role = (words: string, chains: Chains) => {
  for (const w of words.split(' ')) ROLES[w] = chains;
};
role('wife husband spouse partner', [[SPOUSE]]);
role('mum mom mam mummy mommy mother', [[[{ types: ['mother_of'], dir: 'in' }]], [UP]]);
role('dad daddy father', [[[{ types: ['father_of'], dir: 'in' }]], [UP]]);
role('parents', [[UP]]);
role('son daughter child children kid kids boy girl boys girls youngest eldest oldest', [[DOWN]]);
role('brother sister sibling siblings', [[[{ types: ['sibling_of', 'brother_of', 'sister_of'], dir: 'both' }]]]);
role('grandad granddad grandpa grandfather grandma granny gran nan nana grandmother grandparents', [
  [
    [
      { types: ['grandparent_of', 'grandfather_of', 'grandmother_of'], dir: 'in' },
      { types: ['grandchild_of'], dir: 'out' },
    ],
  ],
  [UP, UP],
]);
role('neighbour neighbor neighbours neighbors', [[[{ types: ['neighbour_of', 'neighbor_of'], dir: 'both' }]]]);
role('friend', [[[{ types: ['friend_of'], dir: 'both' }]]]);

const WORDS = Object.keys(ROLES).join('|');
/** "my wife", "our youngest", "our youngest one", "Chidi's dad", "my little sister". */
const OWNER = `(my|our|(\\p{Lu}[\\p{L}-]*)['’]s)\\s+(?:(?:little|baby|big|older|younger|next-door)\\s+)?`;
const PHRASE = new RegExp(`\\b${OWNER}(${WORDS})\\b(?:\\s+(?:one|child|kid|son|daughter|boy|girl)\\b)?`, 'giu');

export interface RoleDeps {
  entities: Pick<EntitiesRepo, 'find' | 'aliases'>;
  relations: Pick<RelationsService, 'list'>;
}

export interface ResolvedRole {
  /** Where the phrase sits in the text ([start, end)). */
  start: number;
  end: number;
  phrase: string;
  /** The entities it names (their own names). */
  names: string[];
}

/** An entity's age in years from its meta (`age`, or `born` as a year or a date), or undefined. */
function ageOf(meta: Record<string, unknown>): number | undefined {
  if (typeof meta.age === 'number') return meta.age;
  const born = meta.born ?? meta.birth_date;
  const year =
    typeof born === 'number' ? born : typeof born === 'string' ? new Date(born).getUTCFullYear() : Number.NaN;
  return Number.isFinite(year) ? new Date().getUTCFullYear() - year : undefined;
}

/** The role phrases of a text whose person the household's relations name (`speaker`: who "my"/"our" is). */
export function resolveRoles(text: string, speaker: string | undefined, deps: RoleDeps): ResolvedRole[] {
  const out: ResolvedRole[] = [];
  const hop = (ids: number[], edges: Hop) =>
    ids.flatMap((id) =>
      deps.relations
        .list(id)
        .filter((r) => edges.some((e) => e.types.includes(r.rel_type) && (e.dir === 'both' || e.dir === r.direction)))
        .map((r) => r.other),
    );
  const ids = (names: string[]) => [
    ...new Set(names.map((n) => deps.entities.find(n)?.id).filter((x): x is number => x !== undefined)),
  ];
  for (const m of text.matchAll(PHRASE)) {
    const owner = m[2] ?? (m[1].toLowerCase() === 'my' || m[1].toLowerCase() === 'our' ? speaker : undefined);
    const from = owner === undefined ? undefined : deps.entities.find(owner);
    if (!from) continue;
    const word = m[3].toLowerCase();
    let names: string[] = [];
    for (const chain of ROLES[word]) {
      let at = [from.id];
      let found: string[] = [];
      for (const edges of chain) {
        found = [...new Set(hop(at, edges))];
        at = ids(found);
      }
      if (found.length) {
        names = found.filter((n) => n.toLowerCase() !== from.name.toLowerCase());
        break;
      }
    }
    if (word === 'youngest' || word === 'eldest' || word === 'oldest') {
      const aged = names.map((n) => ({ n, age: ageOf(deps.entities.find(n)?.meta ?? {}) }));
      if (aged.length < 2 || aged.some((a) => a.age === undefined)) continue;
      aged.sort((a, b) => a.age! - b.age!);
      names = [word === 'youngest' ? aged[0].n : aged[aged.length - 1].n];
    }
    if (names.length)
      out.push({ start: m.index, end: m.index + m[0].length, phrase: m[0], names: [...new Set(names)] });
  }
  return out;
}

/** Is `word` a role or kinship word ("grandma", "mum", "dad")? An alias that is one names a person. */
export function isRoleWord(word: string): boolean {
  return Object.hasOwn(ROLES, word.trim().toLowerCase());
}

/** Every role phrase of a text ("my wife", "Chidi's dad"), whether or not the relations name anyone. */
export function rolePhrases(text: string): { start: number; end: number; phrase: string }[] {
  return [...text.matchAll(PHRASE)].map((m) => ({ start: m.index, end: m.index + m[0].length, phrase: m[0] }));
}

/** Every name the resolved entities go by (own names and aliases): the words a trigger may name them with. */
export function namesOf(roles: readonly ResolvedRole[], deps: RoleDeps): string[] {
  const out = new Set<string>();
  for (const r of roles)
    for (const n of r.names) {
      out.add(n);
      const e = deps.entities.find(n);
      if (e) for (const a of deps.entities.aliases(e.id)) out.add(a.alias);
    }
  return [...out];
}

/** The text with each resolved phrase replaced (the embedder compares events: a person becomes `by`). */
export function replaceRoles(text: string, roles: readonly ResolvedRole[], by: (r: ResolvedRole) => string): string {
  let s = text;
  for (const r of [...roles].sort((a, b) => b.start - a.start)) s = s.slice(0, r.start) + by(r) + s.slice(r.end);
  return s;
}

/**
 * A candidate whose trigger names one person by role, seen from its owner ("when my wife gets home"
 * set by Chidi), with the role replaced by that person's name ("when Grace gets home"): the name
 * guard and coverage then ask for Grace. A role naming several people (or nobody) is left alone.
 */
export function triggerRoles<R extends { trigger_text: string; terms: string; entity_name: string }>(
  row: R,
  deps: RoleDeps,
): R {
  const roles = resolveRoles(row.trigger_text, row.entity_name, deps).filter((r) => r.names.length === 1);
  if (!roles.length) return row;
  const trigger_text = replaceRoles(row.trigger_text, roles, (r) => r.names[0]);
  return { ...row, trigger_text, terms: triggerTerms(trigger_text).join(' ') };
}

/**
 * The other names of each person the text names by one of theirs (all the name's words said):
 * "Grandad's ringing" names Samuel when "Grandad" is his alias, so "when Grandad Samuel rings" meets it.
 */
export function otherNames(
  said: ReadonlySet<string>,
  personNames: readonly string[],
  entities: Pick<EntitiesRepo, 'find' | 'aliases'>,
): string[] {
  const out = new Set<string>();
  for (const n of personNames) {
    const terms = triggerTerms(n);
    if (!terms.length || !terms.every((t) => said.has(t))) continue;
    const e = entities.find(n);
    if (!e) continue;
    out.add(e.name);
    for (const a of entities.aliases(e.id)) out.add(a.alias);
  }
  return [...out];
}
