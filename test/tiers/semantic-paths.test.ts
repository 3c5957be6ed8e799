/**
 * The neural embedder on every path that matches text: recall (through the hub), search_sessions,
 * check_intentions and cross_query. One model load for the file.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createUseLiteEmbedder, type UseLiteEmbedder } from '../../src/ai/use-lite.js';
import type { Embedder } from '../../src/ai/types.js';
import { createScheduler } from '../../src/scheduler.js';
import { RecallInput, RememberInput } from '../../src/tiers/memory/memory.schemas.js';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

let neural: UseLiteEmbedder;
beforeAll(async () => {
  neural = createUseLiteEmbedder();
  expect(await neural.ready).toBe(true);
});
afterAll(() => neural.close());

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub({ embedder: neural });
});
afterAll(() => hub.close());

describe('semantic recall with use-lite', () => {
  it('answers a paraphrase that shares no content word, and abstains on what was never said', async () => {
    const { memory } = hub.services;
    for (const fact of [
      "Maya works as a paediatric nurse at St Anne's",
      'Maya plays five-a-side football on Thursdays',
      'Maya is allergic to penicillin',
    ])
      await memory.remember(RememberInput.parse({ entity_name: 'Maya', fact }));
    const drug = await memory.recall(RecallInput.parse({ query: 'which antibiotic must Maya avoid' }));
    expect(drug.mode_used).toBe('hybrid');
    // A paraphrase in a three-fact store: the fitted model (confidence.ts) is not sure enough to state it
    // (p under its threshold), so it is the first possible — found, labelled, never dropped.
    expect([...drug.results, ...drug.possible][0].fact).toMatch(/penicillin/);
    const never = await memory.recall(RecallInput.parse({ query: 'what colour is the garage door' }));
    expect(never.results).toEqual([]);
  });

  it("keeps a question asked in the fact's own words even where the encoder scores it low", async () => {
    const { memory } = hub.services;
    // use-lite puts this pair at cosine ≈ 0.49, under the gate's confirm (0.5): the phrase rule keeps it.
    await memory.remember(
      RememberInput.parse({
        entity_name: 'Kitchen',
        entity_type: 'room',
        fact: 'Spare batteries are kept in the kitchen junk drawer to the left of the stove',
      }),
    );
    const r = await memory.recall(RecallInput.parse({ query: 'where are the spare batteries' }));
    expect(r.results[0]?.fact).toMatch(/junk drawer/);
    // Both words, not as one run: still judged by the encoder, so this near miss stays out.
    const miss = await memory.recall(RecallInput.parse({ query: 'how old are the batteries, are they spare ones' }));
    expect(miss.results.map((x) => x.fact)).not.toContain(
      'Spare batteries are kept in the kitchen junk drawer to the left of the stove',
    );
  });
  it('a one-word query finds every fact with that word, however low the encoder scores it', async () => {
    const { memory } = hub.services;
    // use-lite: "peanuts" → 0.46, "bedroom" → 0.46, "night" → 0.41, all under the gate's confirm (0.5).
    await memory.remember(RememberInput.parse({ entity_name: 'Anna', fact: 'Anna is allergic to peanuts' }));
    await memory.remember(
      RememberInput.parse({ entity_name: 'Brian', fact: 'Brian keeps the bedroom at 68°F at night' }),
    );
    for (const [query, fact] of [
      ['peanuts', /peanuts/],
      ['bedroom', /68°F/],
      ['night', /68°F/],
      ['68', /68°F/],
    ] as const) {
      const r = await memory.recall(RecallInput.parse({ query }));
      expect(
        r.results.map((x) => x.fact),
        query,
      ).toEqual([expect.stringMatching(fact)]);
    }
    expect((await memory.recall(RecallInput.parse({ query: 'cashews' }))).results).toEqual([]);
  });

  it('a sentence left with one content word is a question, not a keyword lookup', async () => {
    const { memory } = hub.services;
    await memory.remember(
      RememberInput.parse({
        entity_name: 'Smart lock',
        fact: 'The front door smart lock locks itself automatically 5 minutes after being unlocked',
      }),
    );
    // "who can let us in if we're locked out" keeps only `lock` after the stopwords; the lock's
    // auto-locking does not answer it, so it must not be stated on the strength of that one word.
    const asked = await memory.recall(RecallInput.parse({ query: "who can let us in if we're locked out" }));
    expect(asked.results.map((x) => x.fact)).not.toContainEqual(expect.stringMatching(/locks itself/));
    // Typed as a lookup, the same word still finds it.
    const typed = await memory.recall(RecallInput.parse({ query: 'locked' }));
    expect(typed.results.map((x) => x.fact)).toEqual([expect.stringMatching(/locks itself/)]);
  });

  it('explain says why a question got nothing: the confidence model and the nearest candidates, within the filters', async () => {
    const { memory } = hub.services;
    await memory.remember(RememberInput.parse({ entity_name: 'Brian', fact: 'Brian likes green tea' }));
    await memory.remember(
      RememberInput.parse({ entity_name: 'Ruth', fact: 'Ruth takes her tea with whole milk and two sugars' }),
    );
    // ("what does Brian drink?" used to be asked here; green tea is an answer to it, and with a one-fact
    // scope the model now says so. A question nothing about Brian answers shows the same explain.)
    const r = await memory.recall(
      RecallInput.parse({ query: "what is Brian's shoe size?", entity_name: 'Brian', explain: true }),
    );
    expect(r.results).toEqual([]);
    expect(r.explain).toMatchObject({
      provider: 'use-lite',
      model: { threshold: expect.any(Number), weights: expect.any(Array) },
    });
    const near = r.explain!.considered;
    expect(near[0]).toMatchObject({ entity_name: 'Brian', tier: 'possible', vector: expect.any(Number) });
    expect(near[0].p).toBeLessThan(r.explain!.model.threshold);
    expect(near.every((x) => x.entity_name === 'Brian')).toBe(true); // Ruth's tea is outside the filter
    const found = await memory.recall(RecallInput.parse({ query: 'green tea', explain: true }));
    expect(found.explain!.considered[0]).toMatchObject({
      fact: 'Brian likes green tea',
      tier: 'results',
      phrase: true,
      keyword: 1,
    });
    expect((await memory.recall(RecallInput.parse({ query: 'green tea' }))).explain).toBeUndefined();
  });
});

describe('search_sessions with use-lite', () => {
  it('finds a conversation by meaning, ranks it first, and returns nothing for an unrelated question', async () => {
    const { episodic } = hub.services;
    const talk = async (entity_name: string, turns: string[]) => {
      const { session_id } = episodic.openSession({ entity_name, meta: {} });
      for (const content of turns) episodic.logTurn({ session_id, role: 'user', content });
      await episodic.closeSession({ session_id });
      return session_id;
    };
    const party = await talk('Anna', [
      "Let's book the trampoline park for Maya's birthday on the 14th",
      'Twelve children are coming',
    ]);
    await talk('Brian', ['The boiler makes a banging noise when the heating starts', 'The plumber bled the radiators']);
    const r = await episodic.searchSessions({ query: "where is our daughter's celebration being held", limit: 10 });
    expect(r.results[0]?.session_id).toBe(party);
    const none = await episodic.searchSessions({ query: 'how much is the council tax this year', limit: 10 });
    expect(none.results).toEqual([]);
  });

  it('a logged turn gets its vector in the background, as a write; a search embeds at most 64 missing turns itself', async () => {
    const calls: { n: number; write: boolean }[] = [];
    const recording: Embedder = {
      ...neural,
      embed: (texts, opts) => (calls.push({ n: texts.length, write: !!opts?.write }), neural.embed(texts, opts)),
    };
    const h = await buildTestHub({ embedder: recording });
    try {
      const { episodic } = h.services;
      const { db } = h;
      const vectors = () => (db.prepare('SELECT count(*) AS n FROM turn_vectors').get() as { n: number }).n;
      const { session_id } = episodic.openSession({ entity_name: 'Anna', meta: {} });
      episodic.logTurn({
        session_id,
        role: 'user',
        content: "Let's book the trampoline park for Maya's birthday on the 14th",
      });
      for (let i = 0; i < 200 && vectors() < 1; i++) await new Promise((r) => setTimeout(r, 10));
      expect(vectors()).toBe(1); // no search asked for it
      expect(calls).toEqual([{ n: 1, write: true }]);

      // A backlog (an import, an outage): 150 turns written without the background's help.
      db.transaction(() => {
        for (let i = 0; i < 150; i++)
          episodic.repo.insertTurn(session_id, 'assistant', `Noted item number ${i} for the party list`, 1000 + i);
      })();
      calls.length = 0;
      const r = await episodic.searchSessions({ query: "where is our daughter's celebration being held", limit: 10 });
      expect(calls[0]).toEqual({ n: 64, write: false }); // the search's own share, then its query
      expect(r.warnings).toContain('some older turns have no vector yet; they are being embedded in the background');
      expect(vectors()).toBe(65);
      const scheduler = createScheduler(h.services, () => {});
      try {
        expect(await scheduler.run('embed_pending')).toMatchObject({ turns: 86 }); // the minute job's catch-up
      } finally {
        scheduler.stop();
      }
      expect(vectors()).toBe(151);
      expect(calls.slice(2).every((c) => c.write)).toBe(true);
      expect(await episodic.embedTurns()).toBe(0);
    } finally {
      await h.close();
    }
  });

  it('cross_query carries the semantic session hit', async () => {
    const r = await post(hub, '/cross_query', { query: "the party for Maya's birthday" });
    expect(r.status).toBe(200);
    expect(r.body.results.some((x: { tier: string }) => x.tier === 'session')).toBe(true);
  });
});

describe('check_intentions with use-lite', () => {
  it('fires on a paraphrased trigger and stays quiet on an unrelated text', async () => {
    const { prospective } = hub.services;
    await prospective.intend({
      entity_name: 'Anna',
      trigger_text: 'when I go grocery shopping',
      action_text: 'buy oat milk',
      once: false,
    });
    const fired = await prospective.check({ text: "I'm at the supermarket now" });
    expect(fired.triggered.map((t) => t.action_text)).toEqual(['buy oat milk']);
    const quiet = await prospective.check({ text: 'The cat is asleep on the sofa' });
    expect(quiet.triggered).toEqual([]);
  });
});
