/**
 * search_sessions in two tiers with the real use-lite encoder: a conversation asked about in other
 * words that the gate is not sure of is listed in `possible` (labelled, never in `results`), a
 * question no conversation is about gets no confident result, and `possible: false` gives results only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { SESSION_POSSIBLE_FLOOR, SESSION_POSSIBLE_MAX } from '../../src/tiers/episodic/session-vectors.js';
import { NOT_SURE } from '../../src/tiers/memory/recall-text.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

let neural: UseLiteEmbedder;
let hub: TestHub;
const ids: Record<string, number> = {};
beforeAll(async () => {
  neural = createUseLiteEmbedder();
  expect(await neural.ready).toBe(true);
  hub = await buildTestHub({ embedder: neural });
  const { episodic } = hub.services;
  const talk = async (key: string, entity_name: string, turns: string[]) => {
    const { session_id } = episodic.openSession({ entity_name, meta: {} });
    for (const content of turns) episodic.logTurn({ session_id, role: 'user', content });
    await episodic.closeSession({ session_id });
    ids[key] = session_id;
  };
  await talk('tablets', 'Ruth', [
    "I've nearly run out of my blood pressure tablets",
    'Can you order the repeat prescription from Dr Patel?',
  ]);
  await talk('boiler', 'Brian', [
    'The boiler makes a banging noise when the heating starts',
    'The plumber bled the radiators on Tuesday',
  ]);
  await talk('party', 'Anna', [
    "Let's book the trampoline park for Maya's birthday on the 14th",
    'Twelve children are coming',
  ]);
  await talk('car', 'Brian', ['The brakes on the Golf are squeaking', "Book it in at Hendry's garage for a service"]);
  await embedAll();
});
afterAll(async () => {
  await hub?.close();
  await neural?.close();
});
const embedAll = () => hub.services.episodic.embedTurns();

describe('search_sessions: confident results and possible sessions', () => {
  it('lists a paraphrased conversation the gate is unsure of as possible, labelled, first', async () => {
    const r = await hub.services.episodic.searchSessions({ query: 'which pills is gran short of', limit: 10 });
    const both = [...new Set([...r.results.map((x) => x.session_id), ...r.possible.map((x) => x.session_id)])];
    expect(both[0]).toBe(ids.tablets);
    // Not confident (no shared content word, cosine under the gate): found only as a possible.
    expect(r.results).toEqual([]);
    expect(r.possible[0]).toMatchObject({ session_id: ids.tablets, entity_name: 'Ruth', low_confidence: true });
    expect(r.possible[0].similarity).toBeGreaterThanOrEqual(SESSION_POSSIBLE_FLOOR['use-lite']);
    expect(r.possible.length).toBeLessThanOrEqual(SESSION_POSSIBLE_MAX);
    expect(r.result.split('\n')[0]).toBe('Nothing said in past conversations answers that.');
    expect(r.result).toContain(NOT_SURE);
    expect(r.result.indexOf(NOT_SURE)).toBeLessThan(r.result.indexOf('blood pressure'));
    const only = await hub.services.episodic.searchSessions({
      query: 'which pills is gran short of',
      limit: 10,
      possible: false,
    });
    expect(only.possible).toEqual([]);
    expect(only.result).not.toContain(NOT_SURE);
  });

  it("a question in the conversation's own words is confident, and is not repeated as possible", async () => {
    const r = await hub.services.episodic.searchSessions({
      query: 'when did the plumber bleed the radiators',
      limit: 10,
    });
    expect(r.results[0]?.session_id).toBe(ids.boiler);
    expect(r.possible.map((x) => x.session_id)).not.toContain(ids.boiler);
  });

  it('a question no conversation is about gets no confident result', async () => {
    const r = await hub.services.episodic.searchSessions({ query: 'how much is the council tax this year', limit: 10 });
    expect(r.results).toEqual([]);
    expect(r.possible.every((x) => x.low_confidence && x.similarity >= SESSION_POSSIBLE_FLOOR['use-lite'])).toBe(true);
  });

  it('HTTP /search_sessions returns the possible tier and honours possible: false (the field named on bad input)', async () => {
    const r = await post(hub, '/search_sessions', { query: 'which pills is gran short of' });
    expect(r.status).toBe(200);
    expect(r.body.possible[0]).toMatchObject({ session_id: ids.tablets, low_confidence: true });
    const off = await post(hub, '/search_sessions', { query: 'which pills is gran short of', possible: false });
    expect(off.body.possible).toEqual([]);
    const bad = await post(hub, '/search_sessions', { query: 'pills', possible: 'maybe' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('possible');
  });
});
