/**
 * Facts, places and reminders through the ask door (src/tiers/ask/memory-answers.ts, issue #34 item 5):
 * one spoken policy — a confident fact stated, a possible one about whom was asked hedged, else "I don't
 * know" — aliases, roles and the speaker's "my" reaching the right person's facts, where-questions and
 * reminder questions. A real hub (SQLite in a temp dir, the real services), the local embedder and a
 * manual clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestHub, rememberByHand, type TestHub } from '../../helpers/hub.js';
import {
  answerFact,
  answerPlace,
  answerReminder,
  type AskQuestion,
  type AskReply,
} from '../../../src/tiers/ask/memory-answers.js';
import { AskOutput } from '../../../src/tiers/ask/ask.schemas.js';
import { RecallInput } from '../../../src/tiers/memory/memory.schemas.js';
import { internals } from '../../../src/internals.js';
import { handMadeEmbedder, unitVector } from '../../helpers/hand-made-embedder.js';

let hub: TestHub;
const HOUR = 3600;
const ids: Record<string, number> = {};
beforeAll(async () => {
  hub = await buildTestHub();
  const s = hub.services;
  for (const name of ['Anna', 'Brian', 'Jadwiga', 'Felix', 'Helga'])
    await rememberByHand(hub, name, `${name} lives with the family`, { entity_type: 'person' });
  ids.birthday = (await rememberByHand(hub, 'Anna', "Anna's birthday is on the 3rd of May")).id;
  await rememberByHand(hub, 'Helga', "Helga's birthday is on the 19th of April");
  ids.stay = (await rememberByHand(hub, 'Jadwiga', 'Jadwiga comes to stay every August for two weeks')).id;
  await rememberByHand(hub, 'Brian', 'Brian has a dentist appointment on Tuesday at 9');
  await rememberByHand(hub, 'house', 'The stopcock for the water is under the kitchen sink', { entity_type: 'place' });
  s.aliases.add({ entity_name: 'Jadwiga', alias: 'Grandma' });
  s.relations.relate({ entity_a: 'Brian', entity_b: 'Anna', rel_type: 'spouse_of' });
  s.spatial.locate({
    entity_name: 'car keys',
    container_name: 'hall drawer',
    entity_type: 'object',
    container_type: 'room',
    confidence: 1,
  });
  s.spatial.locate({
    entity_name: 'reading glasses',
    container_name: 'kitchen counter',
    entity_type: 'object',
    container_type: 'room',
    confidence: 1,
  });
  await s.prospective.intend({
    entity_name: 'Brian',
    trigger_text: 'when Anna gets home',
    action_text: 'remind her to call the plumber',
    once: true,
  });
  await s.prospective.intend({
    entity_name: 'Brian',
    trigger_text: 'when I get home',
    action_text: 'take the bins out',
    once: true,
  });
  await s.prospective.intend({
    entity_name: 'Anna',
    trigger_text: 'on Friday',
    action_text: 'pay the window cleaner',
    once: true,
  });
  hub.clock.advance(2 * HOUR);
});
afterAll(() => hub.close());

const ask = (question: string, more: Partial<AskQuestion> = {}): AskQuestion => ({
  question,
  possible: true,
  now: hub.clock.now(),
  ...more,
});
/** Every reply has the door's shape (AskOutput less `ok`). */
const shaped = <T extends AskReply | null>(r: T): T => (r && AskOutput.parse(r), r);
const fact = async (q: string, more: Partial<AskQuestion> = {}) => shaped(await answerFact(hub.services, ask(q, more)));
const place = async (q: string) => shaped(await answerPlace(hub.services, ask(q)));
const reminder = async (q: string, more: Partial<AskQuestion> = {}) =>
  shaped(await answerReminder(hub.services, ask(q, more)));

describe('facts: stated when confident, hedged when only possible, else "I don\'t know"', () => {
  it('a confident fact is stated as it is, with the memory it rests on', async () => {
    const r = await fact("when is Anna's birthday?");
    expect(r).toMatchObject({
      result: "Anna's birthday is on the 3rd of May.",
      answer: { kind: 'fact', entity: 'Anna', value: "Anna's birthday is on the 3rd of May" },
      sure: true,
    });
    expect(r.evidence[0]).toMatchObject({
      type: 'memory',
      id: ids.birthday,
      text: "Anna's birthday is on the 3rd of May",
    });
    expect(r.evidence[0].confidence).toBeGreaterThan(0.9);
  });

  it('an alias reaches its entity\'s facts: "grandma" is Jadwiga', async () => {
    const r = await fact('when does grandma come to stay?');
    expect(r.answer).toMatchObject({
      kind: 'fact',
      entity: 'Jadwiga',
      value: 'Jadwiga comes to stay every August for two weeks',
    });
    expect(r.evidence[0].id).toBe(ids.stay);
    // The same through POST /recall: the fact is found, and recall says whom the question named.
    const out = await hub.services.memory.recall({
      query: 'when does grandma come to stay?',
      top_k: 5,
      mode: 'hybrid',
      recency_weight: 0.2,
      min_confidence: 0,
      min_trust: 0,
      include_superseded: false,
      explain: false,
      possible: true,
    });
    expect([...out.results, ...out.possible].map((h) => h.id)).toContain(ids.stay);
    expect(out.about).toEqual(['Jadwiga']);
  });

  it('the speaker is "I" and "my"; "my wife" goes through their relations', async () => {
    const dentist = await fact('when is my dentist appointment', { speaker: 'Brian' });
    expect(dentist.answer).toMatchObject({ entity: 'Brian', value: 'Brian has a dentist appointment on Tuesday at 9' });
    const wife = await fact("when is my wife's birthday?", { speaker: 'Brian' });
    expect(wife).toMatchObject({ result: "Anna's birthday is on the 3rd of May.", sure: true });
  });

  it('"our youngest" is the younger child the relations and ages name', async () => {
    const s = hub.services;
    s.relations.relate({ entity_a: 'Brian', entity_b: 'Leo', rel_type: 'parent_of' });
    s.relations.relate({ entity_a: 'Brian', entity_b: 'Maya', rel_type: 'parent_of' });
    const { entities } = internals(s);
    entities.setTypeMeta(entities.get('Leo').id, 'person', { age: 11 });
    entities.setTypeMeta(entities.get('Maya').id, 'person', { age: 7 });
    await rememberByHand(hub, 'Maya', 'Maya is allergic to peanuts');
    await rememberByHand(hub, 'Leo', 'Leo is allergic to cats');
    const r = await fact('what is our youngest allergic to?', { speaker: 'Brian' });
    expect(r.answer).toMatchObject({ kind: 'fact', entity: 'Maya', value: 'Maya is allergic to peanuts' });
  });

  it('"who is my wife?" is answered by the relations', async () => {
    for (const q of ["what's my wife's name?", 'who is my wife?'])
      expect(await fact(q, { speaker: 'Brian' }), q).toEqual({
        result: 'Your wife is Anna.',
        answer: { kind: 'fact', entity: 'Anna', value: 'Anna' },
        sure: true,
        evidence: [],
      });
    expect((await fact("who is Anna's husband?")).result).toBe("Anna's husband is Brian.");
    // No wife known for Helga: no name is made up.
    expect((await fact('who is my wife?', { speaker: 'Helga' })).result).not.toMatch(/wife is/);
  });

  it('a role that names nobody is not the speaker: Helga has no wife, so not her own birthday', async () => {
    const r = await fact("when is my wife's birthday?", { speaker: 'Helga' });
    expect(r.result).not.toMatch(/Helga/);
  });

  it("never a guess about someone else: Felix's birthday is not Helga's", async () => {
    const r = await fact("when is Felix's birthday?");
    expect(r.result).not.toMatch(/Helga|April/);
    expect(r.answer.entity).toBe('Felix');
    if (r.answer.kind === 'unknown') expect(r.result).toBe("I don't know that about Felix.");
  });

  it('nothing known: "I don\'t know", never the question said back', async () => {
    const r = await fact('what is the wifi password?');
    expect(r).toEqual({ result: "I don't know that.", answer: { kind: 'unknown' }, sure: true, evidence: [] });
  });
});

describe('places', () => {
  it('a located object: where, and how long ago, in words', async () => {
    for (const q of [
      'where are my car keys?',
      "where're the car keys",
      'have you seen the car keys?',
      'do you know where the car keys are?',
    ]) {
      const r = await place(q);
      expect(r, q).toMatchObject({
        result: 'The car keys are in the hall drawer, last seen 2 hours ago.',
        answer: { kind: 'place', entity: 'car keys', value: 'hall drawer' },
        sure: true,
      });
    }
    expect((await place("where's my reading glasses"))!.result).toBe(
      'The reading glasses are on the kitchen counter, last seen 2 hours ago.',
    );
  });

  it("not located: the object's words only, never the question", async () => {
    expect((await place("where's dog lead"))!.result).toBe("I don't know where the dog lead is.");
    expect((await place('do you know where the keys to the skoda are?'))!.result).toBe(
      "I don't know where the keys to the skoda are.",
    );
    expect((await place('have you seen my scissors'))!).toMatchObject({
      result: "I don't know where your scissors are.",
      answer: { kind: 'unknown' },
    });
  });

  it('a fact that says where answers a where-question nothing is located for', async () => {
    expect((await place('where is the stopcock?'))!.result).toBe(
      'The stopcock for the water is under the kitchen sink.',
    );
  });

  it('not a where-question: null', async () => {
    expect(await place("when is Anna's birthday?")).toBeNull();
  });
});

describe('through ask: every way people ask where, or what to remember, reaches its tier', () => {
  const asked = (question: string, speaker?: string) =>
    hub.services.ask.ask({ question, possible: true, now: hub.clock.now(), ...(speaker && { speaker }) });
  it('"do you know where…", "I can\'t find…", "any idea where…" are place questions', async () => {
    for (const q of [
      'Do you know where the car keys are?',
      "I can't find the car keys",
      'Any idea where the car keys are?',
    ])
      expect((await asked(q)).answer, q).toMatchObject({ kind: 'place', value: 'hall drawer' });
  });
  it('"is there anything I should remember when I get home?" is a reminder question', async () => {
    const r = await asked('Is there anything I should remember when I get home?', 'Brian');
    expect(r.result).toBe('You have one reminder: when I get home, take the bins out.');
  });
  it('"I don\'t know that about Anna": the name as the household writes it, whoever asks', async () => {
    const r = await asked("What's my favourite colour?", 'anna');
    expect(r.result).toBe("I don't know that about Anna.");
  });
});

describe('reminders', () => {
  it('"do I have any reminders?" lists the speaker\'s, plainly', async () => {
    const r = await reminder('do I have any reminders?', { speaker: 'Brian' });
    expect(r).toMatchObject({ answer: { kind: 'reminder', entity: 'Brian', count: 2 }, sure: true });
    expect(r!.result).toMatch(/^You have 2 reminders: /);
    expect(r!.result).toContain('when Anna gets home, remind her to call the plumber');
    expect(r!.result).toContain('when I get home, take the bins out');
    expect(r!.evidence.map((e) => e.type)).toEqual(['intention', 'intention']);
  });

  it('about a person: "what did I want to tell Anna?"', async () => {
    const r = await reminder('what did I want to tell Anna?', { speaker: 'Brian' });
    expect(r!.result).toBe('You have one reminder: when Anna gets home, remind her to call the plumber.');
  });

  it('about a situation, without firing it: "what should I remember when I get home?"', async () => {
    const r = await reminder('what should I remember when I get home?', { speaker: 'Brian' });
    expect(r!.result).toBe('You have one reminder: when I get home, take the bins out.');
    // Asking is not the situation: the once-only intention is still there to fire.
    const live = hub.services.prospective.list({ entity_name: 'Brian', active_only: true }).intentions;
    expect(live.map((i) => i.action_text)).toContain('take the bins out');
  });

  it("without a speaker, everyone's, each with its owner", async () => {
    const r = await reminder('are there any reminders?');
    expect(r!.result).toMatch(/^There are 3 reminders: /);
    expect(r!.result).toContain('for Anna, on Friday, pay the window cleaner');
  });

  it('nothing about that: says so; not a reminder question: null', async () => {
    expect(await reminder('what did I want to tell Felix?', { speaker: 'Brian' })).toMatchObject({
      result: "I don't have a reminder about that.",
      answer: { kind: 'unknown' },
    });
    expect(await reminder("when is Anna's birthday?")).toBeNull();
  });
});

describe('a possible fact: offered hedged when it stands out and is about whom was asked', () => {
  // A hand-made embedder (presented as use-lite) puts each question at cosine 0.62 to one fact and
  // shares no word with it: the confidence model gives p ≈ 0.35 — possible, not confident.
  const unit = unitVector(6);
  const near = unit(0.62, Math.sqrt(1 - 0.62 ** 2));
  const embedder = handMadeEmbedder(
    6,
    [
      [/stopcock/, unit(1)],
      [/pipes burst/, near],
      [/Helga's birthday/, unit(0, 0, 1)],
      [/Felix's birthday/, unit(0, 0, 0.62, Math.sqrt(1 - 0.62 ** 2))],
    ],
    unit(0, 0, 0, 0, 0, 1),
  );
  let h: TestHub;
  beforeAll(async () => {
    h = await buildTestHub({ embedder });
    await rememberByHand(h, 'house', 'The stopcock for the water is under the kitchen sink', { entity_type: 'place' });
    await rememberByHand(h, 'Helga', "Helga's birthday is on the 19th of April", { entity_type: 'person' });
    await rememberByHand(h, 'Felix', 'Felix plays football on Saturdays', { entity_type: 'person' });
  });
  afterAll(() => h.close());
  const q = (question: string, possible = true) => ({ question, possible, now: h.clock.now() });

  it('"I\'m not sure, but I remember that …", not sure, resting on that memory', async () => {
    const r = shaped(await answerFact(h.services, q('what do we do if the pipes burst?')));
    expect(r).toMatchObject({
      result: "I'm not sure, but I remember that the stopcock for the water is under the kitchen sink.",
      answer: { kind: 'fact', entity: 'house', value: 'The stopcock for the water is under the kitchen sink' },
      sure: false,
      evidence: [{ type: 'memory', text: 'The stopcock for the water is under the kitchen sink' }],
    });
    // possible: false — only confident answers.
    expect(await answerFact(h.services, q('what do we do if the pipes burst?', false))).toMatchObject({
      result: "I don't know that.",
      answer: { kind: 'unknown' },
    });
  });

  it("never a guess about someone else: Helga's birthday, as near as the stopcock was, is not offered for Felix", async () => {
    const out = await h.services.memory.recall(
      RecallInput.parse({ query: "when is Felix's birthday?", explain: true }),
    );
    expect(out.possible.find((p) => p.entity_name === 'Helga')).toMatchObject({ about_another: true });
    const r = shaped(await answerFact(h.services, q("when is Felix's birthday?")));
    expect(r).toEqual({
      result: "I don't know that about Felix.",
      answer: { kind: 'unknown', entity: 'Felix' },
      sure: true,
      evidence: [],
    });
  });
});
