/**
 * What a question is about (SPEC §5 Ask, issue #34 item 4): one series — an entity and a metric —
 * found by the entity's name or alias, a Home Assistant entity id read as words
 * (`binary_sensor.garage_door` → "garage door", its domain a device type: `light.kitchen` is "the
 * kitchen light"), the concept the question asks about ("how warm" → temperature, "run" → the
 * plug's power), WordNet relatives of the question's words ("telly" → television) and, when no word
 * of the question names anything, the encoder over series names.
 *
 * The index of series names is built once and rebuilt when series, aliases or entities change
 * (`stale()`: the services' events, and a one-row check of the series table before each question).
 * When two entities fit equally the first is taken and the match is loose (`sure` false).
 */
import { analyze, tokenize } from '../../ai/text.js';
import type { Embedder } from '../../ai/types.js';
import type { WordNet } from '../../ai/wordnet.js';
import type { SeriesRow, WindowReads } from '../timeseries/window.reader.js';
import { askedConcept, type Concept, isAskingStem, isGenericStem, measuredConcept } from './concepts.js';
import { isTwoState, STATE_WORDS, stateWords } from './two-state.js';
import { THINGS } from './things.js';

export interface SubjectSeries extends SeriesRow {
  aliases: string[];
  concept: Concept | null;
}

export interface Subject {
  series: SubjectSeries;
  /**
   * How it was found: `name` (name or alias words), `partial` (its name, with other words of the question
   * left over), `concept` (only what it measures), `wordnet`, `encoder`.
   */
  how: 'name' | 'partial' | 'concept' | 'wordnet' | 'encoder';
  /** Another entity fitted as well (named in `result`); false with `how` wordnet/encoder too. */
  sure: boolean;
  /** The runner-up when two fitted. */
  other?: SubjectSeries;
  /** The series reads as two states (open/closed, on/off, home/away, running). */
  twoState: boolean;
}

/** Why nothing was found: the words that named something the home has no readings from ("the shed door"). */
export interface NoSubject {
  named: string | null;
}

interface Indexed {
  s: SubjectSeries;
  /** Per name (entity name, each alias): the stems that say which thing it is. */
  names: Set<string>[];
  /** Device-type words (a Home Assistant domain: light, lock, cover, fan, person). */
  kinds: Set<string>;
  twoState: boolean;
  text: string;
}

/**
 * Above this cosine (local or neural encoder) a series name may stand for the question's words. Tuned
 * on the ask eval's tuning part: at 0.55 every encoder match there was wrong ("kitchen window" → the
 * living-room lamp 0.67, "dryer" → the bedroom temperature 0.62, "attic" → the lamp 0.61).
 */
const ENCODER_MIN = 0.7;
/** Words of a question looked at (a question names its subject in a few). */
const MAX_WORDS = 12;
/** WordNet's weight of a synonym (0.81; a broader word, "room" for "kitchen", is 0.7). */
const SYNONYM = 0.8;
/** Words an answer repeats as "the shed door"; more is not a name, and the answer does not say it back. */
const NAMED_MAX = 4;
const QUIET_DOMAINS = new Set(['sensor', 'binary_sensor', 'input_number', 'input_boolean']);

/** "binary_sensor.garage_door" → its words and its Home Assistant domain. */
function nameParts(name: string): { words: string; domain?: string } {
  const m = /^([a-z_]+)\.(.+)$/.exec(name);
  if (!m) return { words: name.replace(/[._/-]/g, ' ') };
  return { words: m[2].replace(/[._/-]/g, ' '), domain: m[1] };
}

/** Stems that pick the thing out (not "sensor", not "temperature"); the generic ones if nothing else. */
function pickStems(text: string): Set<string> {
  const all = tokenize(text);
  const picked = all.filter((w) => !isGenericStem(w) && (!isAskingStem(w) || w === 'back'));
  return new Set(picked.length ? picked : all.filter((w) => !isAskingStem(w)));
}

export interface SubjectDeps {
  reads: WindowReads;
  wordnet: WordNet;
  embedder: Embedder;
}

export function createSubjects(deps: SubjectDeps) {
  const { reads, wordnet, embedder } = deps;
  let index: Indexed[] | null = null;
  let signature = '';
  const vectors = new Map<string, Float32Array>();

  function build(): Indexed[] {
    const byEntity = new Map<number, string[]>();
    for (const a of reads.aliases()) byEntity.set(a.entity_id, [...(byEntity.get(a.entity_id) ?? []), a.alias]);
    return reads
      .series()
      .filter((r) => r.value_type !== 'composite')
      .map((r) => {
        const aliases = byEntity.get(r.entity_id) ?? [];
        const s: SubjectSeries = { ...r, aliases, concept: measuredConcept(r.metric, r.entity_name, r.unit) };
        const parts = [r.entity_name, ...aliases].map(nameParts);
        const kinds = new Set(
          parts.flatMap((p) => (p.domain && !QUIET_DOMAINS.has(p.domain) ? tokenize(p.domain.replace(/_/g, ' ')) : [])),
        );
        const last = reads.last(r.id)?.value;
        const text = `${parts[0].words} ${r.metric.replace(/[._]/g, ' ')}`;
        return { s, names: parts.map((p) => pickStems(p.words)), kinds, twoState: isTwoState(s, last), text };
      });
  }

  /** The index, rebuilt when a series was added or removed since it was built. */
  function current(): Indexed[] {
    const sig = reads.signature();
    if (!index || sig !== signature) {
      index = build();
      signature = sig;
    }
    return index;
  }

  /** How well a series fits the question's concept and shape: 0 (another concept) … 1. */
  function metricFit(x: Indexed, asked: Concept | null, stateQuestion: boolean, question: string): number {
    if (asked === 'energy' && x.s.concept === 'power') return 0.7; // energy is power over time
    if (asked) return x.s.concept === asked ? 1 : x.s.concept === null ? 0.2 : 0;
    if (stateQuestion) {
      if (!x.twoState) return 0.1;
      // "locked": only a lock says it; a door's contact does not.
      if (/\b(locked|unlocked|lock)\b/.test(question)) return stateWords(x.s)[0] === 'locked' ? 1 : 0.05;
      // "run"/"used"/"boil": the plug's power says it; "on"/"off"/"switched": its switch state.
      const runs = /\b(run|runs|running|ran|used?|boil(ed)?)\b/.test(question);
      return x.s.concept === 'power' ? (runs ? 1 : 0.8) : runs ? 0.8 : 0.9;
    }
    if (x.s.value_type !== 'numeric') return 0; // "how much …" of a categorical series: not a reading question
    return x.s.concept === 'temperature' ? 0.6 : x.s.concept ? 0.5 : 0.1;
  }

  /** Question stems that name things, with the surface words they came from (for "the shed door"). */
  function namingWords(question: string) {
    const tokens = analyze(question);
    // "back" before a naming word names a place ("the back door"); elsewhere it asks ("is Anna back?").
    const names = (i: number) =>
      !isAskingStem(tokens[i].stem) ||
      (tokens[i].stem === 'back' && i + 1 < tokens.length && !isAskingStem(tokens[i + 1].stem));
    return tokens.filter((t, i) => names(i) && !/^\d+$/.test(t.stem));
  }

  /**
   * WordNet relatives of a word (weights above the hyponym's), each as its stems joined by a space: a
   * relative of several words ("dishwashing machine") names a thing only as a whole, never by one of
   * its words ("machine" is not the washing machine).
   */
  function relatives(word: string, min = 0.55): Set<string> {
    const out = new Set<string>();
    for (const e of wordnet.expand(word)) if (e.weight >= min) out.add(tokenize(e.word).join(' '));
    return out;
  }

  /** The words of a name (in order) that a relative of one question word says, singly or as a run of words. */
  function covered(name: string[], r: Set<string> | undefined): Set<string> {
    const out = new Set<string>();
    if (!r) return out;
    for (let i = 0; i < name.length; i++)
      for (let j = i + 1; j <= Math.min(name.length, i + 3); j++)
        if (r.has(name.slice(i, j).join(' '))) for (const w of name.slice(i, j)) out.add(w);
    return out;
  }

  async function encoderMatch(phrase: string, idx: Indexed[]): Promise<Indexed | null> {
    const missing = idx.filter((x) => !vectors.has(x.text));
    try {
      if (missing.length) {
        const vs = await embedder.embed(missing.map((x) => x.text));
        missing.forEach((x, i) => vectors.set(x.text, vs[i]));
      }
      const [q] = await embedder.embed([phrase]);
      let best: Indexed | null = null;
      let bestCos = ENCODER_MIN;
      for (const x of idx) {
        const v = vectors.get(x.text)!;
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += v[i] * q[i];
        if (dot > bestCos) [best, bestCos] = [x, dot];
      }
      return best;
    } catch {
      return null; // the encoder is down: no loose match
    }
  }

  /**
   * The series the question is about, or why none: `named` is the words that named a thing the home
   * has no readings from (null when the question named nothing at all).
   */
  async function find(question: string): Promise<Subject | NoSubject> {
    const idx = current();
    const q = question.toLowerCase();
    const asked = askedConcept(q);
    const stateQuestion = STATE_WORDS.test(q);
    const words = namingWords(question).slice(0, MAX_WORDS);
    const stems = new Set(words.map((w) => w.stem));
    const rel = new Map(words.map((w) => [w.stem, relatives(w.word)]));
    const synonyms = new Map(words.map((w) => [w.stem, relatives(w.word, SYNONYM)]));

    type Scored = { x: Indexed; name: number; how: Subject['how']; fit: number };
    const scored: Scored[] = [];
    let anyNameHit = false;
    for (const x of idx) {
      let best = 0;
      let how: Subject['how'] = 'name';
      for (const name of x.names) {
        let hit = 0;
        let loose = false;
        const seq = [...name];
        const byRel = new Map([...stems].map((s) => [s, covered(seq, rel.get(s))]));
        const bySyn = new Map([...stems].map((s) => [s, covered(seq, synonyms.get(s))]));
        for (const w of name) {
          if (stems.has(w)) hit++;
          else if ([...byRel.values()].some((c) => c.has(w))) (hit += 0.7), (loose = true);
        }
        // A broader word names a thing only when the name is wholly said: "kitchen" (a room) is not the
        // living room; a synonym may name part of it ("the telly": the living room tv).
        const whole = [...name].every((w) => stems.has(w) || [...byRel.values()].some((c) => c.has(w)));
        const says = (s: string) => (bySyn.get(s)?.size ?? 0) > 0 || ((byRel.get(s)?.size ?? 0) > 0 && whole);
        // A question word that neither this name nor its kind says: "the shed door" is not the garage door.
        const unsaid = [...stems].filter((s) => !name.has(s) && !x.kinds.has(s) && !says(s));
        if (hit > 0 && !loose) anyNameHit = true;
        // Partly named with words left over: another thing. Wholly named with words left over
        // ("Anna's car" for Anna): it may be, but not surely — unless a word left over names a thing of
        // its own ("the bedroom window" is not the bedroom's temperature).
        const other = unsaid.length && (hit < name.size || unsaid.some((u) => THINGS.has(u)));
        const score = hit / Math.max(1, name.size) - (other ? 1 : 0);
        if (score > best) [best, how] = [score, loose ? 'wordnet' : unsaid.length ? 'partial' : 'name'];
      }
      for (const k of x.kinds) if (stems.has(k)) best += 0.3;
      const fit = metricFit(x, asked, stateQuestion, q);
      if (best > 0 && fit > 0) scored.push({ x, name: best, how, fit });
    }

    if (scored.length) {
      scored.sort((a, b) => b.name + b.fit / 2 - (a.name + a.fit / 2) || a.x.s.id - b.x.s.id);
      const [top] = scored;
      const rival = scored.find(
        (c) => c.x.s.entity_id !== top.x.s.entity_id && c.name + c.fit / 2 >= top.name + top.fit / 2 - 1e-9,
      );
      return {
        series: top.x.s,
        twoState: top.x.twoState,
        how: top.how,
        sure: !rival && top.how === 'name',
        ...(rival && { other: rival.x.s }),
      };
    }

    const named = words.length && words.length <= NAMED_MAX ? words.map((w) => w.word).join(' ') : null;
    if (anyNameHit) return { named }; // the question named something; a like thing is not it

    // Nothing named: the concept alone ("how humid was it yesterday?"), if one series measures it.
    if (!words.length && asked) {
      const fits = idx.filter((x) => x.s.concept === asked);
      if (fits.length) {
        const [x, other] = fits;
        return { series: x.s, twoState: x.twoState, how: 'concept', sure: !other, ...(other && { other: other.s }) };
      }
    }
    if (words.length) {
      const x = await encoderMatch(words.map((w) => w.word).join(' '), idx);
      if (x && metricFit(x, asked, stateQuestion, q) > 0)
        return { series: x.s, twoState: x.twoState, how: 'encoder', sure: false };
    }
    return { named };
  }

  return {
    find,
    /** Every indexed series (GET /sensors), fresh. */
    all: () => current().map((x) => ({ ...x.s, two_state: x.twoState })),
    /** Marks the index stale (aliases, renames, a forgotten entity). */
    stale() {
      index = null;
    },
  };
}
export type Subjects = ReturnType<typeof createSubjects>;
export const isSubject = (r: Subject | NoSubject): r is Subject => 'series' in r;
