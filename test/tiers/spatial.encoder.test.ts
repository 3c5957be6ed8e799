/**
 * `find` by the encoder (src/tiers/spatial/encoder-match.ts, issue #34 item 5): a colloquial name that
 * neither spelling nor WordNet ties to a located object ("the clicker for the telly") is compared with
 * the located objects' names by cosine. A hand-made embedder (presented as use-lite) puts the phrase
 * next to "TV remote" and everything else far off; real SQLite and HTTP through the hub.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { handMadeEmbedder, unitVector } from '../helpers/hand-made-embedder.js';
import { answerPlace } from '../../src/tiers/ask/memory-answers.js';
import { objectPhrase, objectSpan } from '../../src/tiers/spatial/object-match.js';

const unit = unitVector(6);
const embedder = handMadeEmbedder(
  6,
  [
    [/^clicker for the telly$/, unit(1, 0.2)],
    [/^TV remote$/, unit(1)],
    [/^car keys$/, unit(0, 1)],
    [/^house keys$/, unit(0, 0, 1)],
  ],
  unit(0, 0, 0, 0, 0, 1),
);

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub({ embedder });
  for (const [entity_name, container_name] of [
    ['TV remote', 'couch'],
    ['car keys', 'hall drawer'],
  ])
    expect((await post(hub, '/locate', { entity_name, container_name })).status).toBe(200);
});
afterAll(() => hub.close());

describe('find by the encoder', () => {
  it('POST /find: "the clicker for the telly" is the TV remote, matched by the encoder', async () => {
    const r = (await post(hub, '/find', { query: "where's the clicker for the telly?" })).body;
    expect(r).toMatchObject({ found: true, entity_name: 'TV remote', container_name: 'couch' });
    expect(r.candidates[0]).toMatchObject({ entity_name: 'TV remote', matched_by: 'encoder' });
    // Spelling still comes first: the encoder is not asked when a name is spelled like the question.
    const keys = (await post(hub, '/find', { query: 'where are the car keys' })).body;
    expect(keys.candidates[0]).toMatchObject({ entity_name: 'car keys', matched_by: 'spelling' });
  });

  it("nothing near enough: not found, said with the object's words only", async () => {
    const r = (await post(hub, '/find', { query: 'do you know where the keys to the skoda are' })).body;
    expect(r).toMatchObject({ found: false, candidates: [], result: "I don't know where the keys to the skoda are." });
  });

  it('the ask door says which object it took, not sure', async () => {
    const r = await answerPlace(hub.services, {
      question: 'have you seen the clicker for the telly?',
      possible: true,
      now: hub.clock.now() + 3 * 3600,
    });
    expect(r).toMatchObject({
      result: "I'm not sure, but if you mean the TV remote: the TV remote is on the couch, last seen 3 hours ago.",
      answer: { kind: 'place', entity: 'TV remote', value: 'couch' },
      sure: false,
    });
  });
});

describe('the object a question asks about', () => {
  it('keeps the words as said, without the asking', () => {
    expect(objectSpan("where's dog lead")).toEqual({ words: 'dog lead' });
    expect(objectSpan('do you know where the keys to the skoda are?')).toEqual({
      words: 'keys to the skoda',
      det: 'the',
    });
    expect(objectSpan('where did I put the remote last night')).toEqual({ words: 'remote', det: 'the' });
    expect(objectSpan('where is it?')).toBeUndefined();
    expect(objectPhrase("where's dog lead")).toEqual({ phrase: 'the dog lead', plural: false });
    expect(objectPhrase('where did I leave my glasses?')).toEqual({ phrase: 'your glasses', plural: true });
    expect(objectPhrase('where is it?')).toEqual({ phrase: 'that', plural: false });
  });
});
