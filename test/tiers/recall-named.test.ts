/**
 * The `elsewhere` rule (src/tiers/memory/named.ts): a question that names an entity is never answered,
 * confidently, by a fact about another entity that does not mention it — "when is Felix's birthday" is
 * not "Helga's birthday is on the 19th of April". Such a fact may still be offered as possible.
 * A hand-made embedder puts each question right next to that fact, so that without the rule it
 * would be stated; real SQLite through the hub's memory service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../helpers/hub.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { aboutElsewhere, namedInQuery } from '../../src/tiers/memory/named.js';
import { handMadeEmbedder, unitVector } from '../helpers/hand-made-embedder.js';

const unit = unitVector(8);
// Each question at cosine ≈ 0.95 to its fact, every other fact far off.
const table: [RegExp, Float32Array][] = [
  [/Helga's birthday/, unit(1)],
  [/birthday/, unit(1, 0.33)],
  [/married in June/, unit(0, 1)],
  [/get married/, unit(0, 1, 0.33)],
  [/St\. Columba/, unit(0, 0, 0, 1)],
  [/cello/, unit(0, 0, 0, 0, 1)],
];
const embedder = handMadeEmbedder(8, table, unit(0, 0, 0, 0, 0, 0, 1));

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub({ embedder });
  for (const [entity_name, fact] of [
    ['Helga', "Helga's birthday is on the 19th of April"],
    ['Felix', "Felix is 9 and is in year four at St. Columba's Primary"],
    ['Nora', 'Nora plays the cello in the school orchestra'],
    ['Anna', 'Brian and Anna married in June 2010'],
    ['Brian', 'Brian plays the cello badly'],
  ])
    await hub.services.memory.remember(RememberInput.parse({ entity_name, fact }));
});
afterAll(() => hub.close());
const recall = (query: string, extra: Record<string, unknown> = {}) =>
  hub.services.memory.recall(RecallInput.parse({ query, ...extra }));
const facts = (xs: { fact: string }[]) => xs.map((x) => x.fact);

describe('a question naming someone is not answered with a fact about someone else', () => {
  it("when is Felix's birthday: Helga's is at most a possible, never a result", async () => {
    const r = await recall("when is Felix's birthday", { explain: true });
    expect(facts(r.results)).toEqual([]);
    expect(facts(r.possible)).toContain("Helga's birthday is on the 19th of April");
    // explain says why the best candidate was not stated.
    expect(r.explain!.considered[0]).toMatchObject({ entity_name: 'Helga', about_another: true });
    // Asked about Helga, the same fact answers.
    expect(facts((await recall("when is Helga's birthday")).results)).toEqual([
      "Helga's birthday is on the 19th of April",
    ]);
  });

  it("a fact that mentions the person answers, whoever's it is (Anna's wedding answers for Brian)", async () => {
    expect(facts((await recall('when did Brian get married')).results)).toEqual([
      'Brian and Anna married in June 2010',
    ]);
  });

  it('a question naming no one, or scoped by entity_name, is judged as before', async () => {
    expect(facts((await recall('when is the birthday')).results)).toEqual(["Helga's birthday is on the 19th of April"]);
    expect(facts((await recall('birthday', { entity_name: 'Helga' })).results)).toEqual([
      "Helga's birthday is on the 19th of April",
    ]);
  });
});

describe('named.ts', () => {
  const known = new Map([
    ['felix', { id: 1, name: 'Felix', type: 'person' }],
    ['helga', { id: 2, name: 'Helga', type: 'person' }],
    ["leo's room", { id: 3, name: "Leo's room", type: 'unknown' }],
    ['leo', { id: 4, name: 'Leo', type: 'person' }],
    ['mum', { id: 2, name: 'Helga', type: 'person' }],
    ['kitchen', { id: 5, name: 'Kitchen', type: 'room' }],
    ['rex', { id: 6, name: 'Rex', type: 'unknown' }],
  ]);
  const find = (n: string) => known.get(n.toLowerCase());

  it('finds names by spans, longest first, possessives included, aliases as said', () => {
    expect(namedInQuery(find, "When is Felix's birthday?").map((n) => n.id)).toEqual([1]);
    expect(namedInQuery(find, "how warm is Leo's Room").map((n) => n.id)).toEqual([3]);
    const mum = namedInQuery(find, 'what does Mum drink');
    // …and where the question said it ("Mum", characters 10–13), for recall to search it by the name (who.ts).
    expect(mum).toEqual([{ id: 2, runs: [['helga'], ['mum']], spans: [{ start: 10, end: 13, possessive: false }] }]);
    expect(namedInQuery(find, 'what is for dinner')).toEqual([]);
  });

  it('only who-names count: a person or pet, or an unknown written like a proper name (not as the first word)', () => {
    // A room is named with everyday words; the fact that answers may be someone else's.
    expect(namedInQuery(find, 'who cleans the Kitchen')).toEqual([]);
    // Unknown type: a proper name when capitalised mid-sentence, not in lower case or first.
    expect(namedInQuery(find, 'what does Rex eat').map((n) => n.id)).toEqual([6]);
    expect(namedInQuery(find, 'what does rex eat')).toEqual([]);
    expect(namedInQuery(find, 'Rex eats what')).toEqual([]);
    // A span that names a non-person is taken whole: "Leo's room" in lower case names no one.
    expect(namedInQuery(find, "how warm is leo's room")).toEqual([]);
    // A person counts however the question is written.
    expect(namedInQuery(find, "when is felix's birthday").map((n) => n.id)).toEqual([1]);
  });

  it('a candidate is elsewhere when it is neither the named entity’s nor mentions it (by name or the word used)', () => {
    const named = namedInQuery(find, 'what does Mum drink');
    const entityOf = new Map([
      [10, 2], // Helga's own fact
      [11, 1], // Felix's, mentions "mum"
      [12, 1], // Felix's, mentions "helga"
      [13, 1], // Felix's, mentions neither
    ]);
    const termsOf = new Map([
      [10, ['helga', 'drink', 'tea']],
      [11, ['felix', 'make', 'mum', 'tea']],
      [12, ['felix', 'help', 'helga']],
      [13, ['felix', 'drink', 'milk']],
    ]);
    expect([...aboutElsewhere(named, entityOf, termsOf)]).toEqual([13]);
    expect([...aboutElsewhere([], entityOf, termsOf)]).toEqual([]);
  });
});
