import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOllamaLlm } from '../../src/ai/ollama.js';
import type { Llm } from '../../src/ai/types.js';
import migration from '../../src/db/migrations/004-episodic-working.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { manualClock, type ManualClock } from '../../src/lib/clock.js';
import { HubError } from '../../src/lib/errors.js';
import { createAuditRepo } from '../../src/tiers/audit/audit.repo.js';
import { createEntitiesRepo } from '../../src/tiers/entities/entities.repo.js';
import * as E from '../../src/tiers/episodic/episodic.schemas.js';
import {
  createEpisodicService,
  extractiveSummary,
  type EpisodicService,
} from '../../src/tiers/episodic/episodic.service.js';
import { turnsMatch } from '../../src/tiers/episodic/episodic.repo.js';
import { startFakeOllama, type FakeAi } from '../helpers/fake-ai.js';

let dir: string;
let db: Db;
let clock: ManualClock;
let fake: FakeAi | undefined;

/** The migration, applied here until it is listed in MIGRATIONS (then openDatabase already did). */
function openWithMigration(): Db {
  const d = openDatabase({ dataDir: dir });
  if (!d.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sessions'").get()) d.exec(migration);
  return d;
}

function service(opts: { llm?: Llm | null; summaryTimeoutMs?: number } = {}): EpisodicService {
  return createEpisodicService({
    db,
    clock,
    entities: createEntitiesRepo(db, clock),
    audit: createAuditRepo(db, clock),
    llm: opts.llm ?? null,
    summaryTimeoutMs: opts.summaryTimeoutMs,
  });
}

const open = (s: EpisodicService, x: Record<string, unknown>) => s.openSession(E.OpenSessionInput.parse(x), 'http');
const turn = (s: EpisodicService, session_id: number, role: string, content: string) => {
  clock.advance(10);
  return s.logTurn(E.LogTurnInput.parse({ session_id, role, content }), 'mcp');
};
const close = (s: EpisodicService, x: Record<string, unknown>) => s.closeSession(E.CloseSessionInput.parse(x), 'http');
const search = (s: EpisodicService, x: Record<string, unknown>) => s.searchSessions(E.SearchSessionsInput.parse(x));
const count = (sql: string, ...p: unknown[]) => (db.prepare(sql).get(...p) as { n: number }).n;

/** Throws unless `fn` throws a HubError with this code whose message starts with `field:`. */
async function expectHubError(fn: () => unknown, code: string, field: string) {
  const e = await (async () => fn())().then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(HubError);
  expect((e as HubError).code).toBe(code);
  expect((e as HubError).message).toMatch(new RegExp(`^${field}:`));
}

const BIRTHDAY = [
  ['user', "Let's plan Maya's birthday party for Saturday afternoon."],
  ['assistant', 'Sure. How many guests are coming to the birthday party?'],
  ['user', 'About twelve kids, and Maya wants a chocolate birthday cake.'],
  ['user', 'ok thanks'],
  ['assistant', 'Noted: twelve guests and a chocolate cake.'],
  ['user', 'Also the car needs new tyres next week.'],
] as const;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-episodic-'));
  clock = manualClock();
  db = openWithMigration();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('sessions and turns', () => {
  it('opens a session for a new entity, logs turns and returns the transcript in order', async () => {
    const s = service();
    const o = open(s, { entity_name: 'Brian', meta: { device: 'kitchen speaker' } });
    expect(o.entity_name).toBe('Brian');
    const t1 = turn(s, o.session_id, 'user', 'Turn the garden lights on at seven');
    const t2 = s.logTurn(
      E.LogTurnInput.parse({
        session_id: o.session_id,
        role: 'assistant',
        content: 'Done.',
        ts: '2026-01-01T00:00:05Z',
      }),
      'mcp',
    );
    expect(t2.ts).toBe(clock.now() - 5); // an explicit ts is kept, and orders the transcript
    const g = service().getSession(E.GetSessionInput.parse({ session_id: String(o.session_id) }));
    expect(g.session).toMatchObject({
      id: o.session_id,
      entity_name: 'Brian',
      status: 'open',
      meta: { device: 'kitchen speaker' },
    });
    expect(g.turns.map((t) => t.id)).toEqual([t2.turn_id, t1.turn_id]);
    expect(g.result).toContain('user: Turn the garden lights on at seven');
    const audit = db.prepare("SELECT actor, op FROM audit WHERE op LIKE 'session.%' ORDER BY id").all();
    expect(audit).toEqual([
      { actor: 'http', op: 'session.open' },
      { actor: 'mcp', op: 'session.turn' },
      { actor: 'mcp', op: 'session.turn' },
    ]);
  });

  it('keeps turns append-only: no UPDATE or DELETE, except by deleting the session or its entity', async () => {
    const s = service();
    const o = open(s, { entity_name: 'Brian' });
    const t = turn(s, o.session_id, 'user', 'the garden hose is leaking');
    expect(() => db.prepare('UPDATE session_turns SET content = ? WHERE id = ?').run('edited', t.turn_id)).toThrow(
      /append-only/,
    );
    expect(() => db.prepare('DELETE FROM session_turns WHERE id = ?').run(t.turn_id)).toThrow(/append-only/);
    expect((await search(s, { query: 'garden' })).results).toHaveLength(1);

    db.prepare('DELETE FROM sessions WHERE id = ?').run(o.session_id);
    expect(count('SELECT count(*) n FROM session_turns')).toBe(0);
    expect((await search(s, { query: 'garden' })).results).toHaveLength(0);

    const o2 = open(s, { entity_name: 'Anna' });
    turn(s, o2.session_id, 'user', 'garden party on Sunday');
    db.prepare("DELETE FROM entities WHERE name = 'Anna'").run(); // what forget(entity_name) does
    expect(count('SELECT count(*) n FROM sessions')).toBe(0);
    expect((await search(s, { query: 'garden' })).results).toHaveLength(0);
    // The external-content index still agrees with its table after the cascades.
    db.exec("INSERT INTO session_turns_fts (session_turns_fts, rank) VALUES ('integrity-check', 1)");
  });

  it('refuses turns on a closed session with a 409 naming session_id, and a second close', async () => {
    const s = service();
    const o = open(s, { entity_name: 'Brian' });
    turn(s, o.session_id, 'user', 'Remind me to call the plumber tomorrow morning');
    const c = await close(s, { session_id: o.session_id, summary: 'Brian asked for a plumber reminder.' });
    expect(c).toMatchObject({ summary: 'Brian asked for a plumber reminder.', summary_source: 'given' });
    await expectHubError(() => turn(s, o.session_id, 'user', 'one more thing'), 'conflict', 'session_id');
    expect(new HubError('conflict', '').status).toBe(409);
    await expectHubError(() => close(s, { session_id: o.session_id }), 'conflict', 'session_id');
    await expectHubError(() => turn(s, 999, 'user', 'hello there'), 'not_found', 'session_id');
    // The database refuses too, whatever the caller.
    expect(() =>
      db
        .prepare("INSERT INTO session_turns (session_id, role, content, ts) VALUES (?, 'user', 'x', 0)")
        .run(o.session_id),
    ).toThrow(/closed/);
    expect(service().getSession({ session_id: o.session_id }).session).toMatchObject({
      status: 'closed',
      ended_at: c.ended_at,
    });
  });

  it('validates role and content length at the schema', async () => {
    expect(E.LogTurnInput.safeParse({ session_id: 1, role: 'narrator', content: 'hi' }).success).toBe(false);
    expect(
      E.LogTurnInput.safeParse({ session_id: 1, role: 'user', content: 'x'.repeat(E.MAX_TURN_CHARS + 1) }).success,
    ).toBe(false);
    expect(
      E.LogTurnInput.safeParse({ session_id: 1, role: 'user', content: 'x'.repeat(E.MAX_TURN_CHARS) }).success,
    ).toBe(true);
  });
});

describe('close_session summaries', () => {
  function birthday(s: EpisodicService) {
    const o = open(s, { entity_name: 'Brian' });
    for (const [role, content] of BIRTHDAY) turn(s, o.session_id, role, content);
    return o.session_id;
  }

  it('asks the configured LLM for a 1–3 sentence summary', async () => {
    fake = await startFakeOllama({
      chat: () =>
        "Summary: Brian planned Maya's birthday party for Saturday with twelve guests. Maya wants a chocolate cake. The car needs tyres. Extra sentence.",
    });
    const s = service({ llm: createOllamaLlm({ baseUrl: fake.url, model: 'llama3.2', timeoutMs: 5000 }) });
    const id = birthday(s);
    const c = await close(s, { session_id: id });
    expect(c.summary_source).toBe('llm');
    expect(c.summary).toBe(
      "Brian planned Maya's birthday party for Saturday with twelve guests. Maya wants a chocolate cake. The car needs tyres.",
    );
    const sent = fake.requests.find((r) => r.path === '/api/chat')!.body.messages.at(-1).content as string;
    expect(sent).toContain("Brian: Let's plan Maya's birthday party");
    expect(sent).toContain('assistant: Noted: twelve guests');
    expect(s.getSession({ session_id: id }).session.summary).toBe(c.summary);
    const audit = db.prepare("SELECT actor, after FROM audit WHERE op = 'session.close'").get() as {
      actor: string;
      after: string;
    };
    expect(audit.actor).toBe('http');
    expect(JSON.parse(audit.after)).toMatchObject({ summary_source: 'llm', summary: c.summary });
  });

  it('falls back to the extractive summary when the LLM fails or hangs', async () => {
    fake = await startFakeOllama({ fail: true });
    const llm = createOllamaLlm({ baseUrl: fake.url, model: 'llama3.2', timeoutMs: 5000 });
    const failed = await close(service({ llm }), { session_id: birthday(service()) });
    expect(failed.summary_source).toBe('extractive');
    expect(failed.warnings[0]).toMatch(/LLM summary failed/);

    fake.options.fail = false;
    fake.options.hang = true;
    const hung = await close(service({ llm, summaryTimeoutMs: 200 }), { session_id: birthday(service()) });
    expect(hung.summary_source).toBe('extractive');
    expect(hung.warnings[0]).toMatch(/no answer within 200 ms/);
    expect(hung.summary).toBe(failed.summary);
  });

  it('extracts the most informative user turns, in order, skipping filler', async () => {
    const s = service();
    const c = await close(s, { session_id: birthday(s) });
    expect(c.summary_source).toBe('extractive');
    expect(c.summary).toMatch(/^Brian: /);
    expect(c.summary).toContain("Let's plan Maya's birthday party for Saturday afternoon");
    expect(c.summary).toContain('chocolate birthday cake');
    expect(c.summary).not.toContain('ok thanks');
    expect(c.summary!.indexOf('plan Maya')).toBeLessThan(c.summary!.indexOf('chocolate'));
  });

  it('uses assistant turns when the user said nothing usable, and no summary for an empty session', async () => {
    const mk = (r: string, content: string, i: number) => ({ id: i, session_id: 1, role: r as 'user', content, ts: i });
    expect(
      extractiveSummary([mk('user', 'ok', 1), mk('assistant', 'The dishwasher cycle finished at noon.', 2)], 'Brian'),
    ).toBe('Assistant: The dishwasher cycle finished at noon.');
    const s = service();
    const empty = await close(s, { session_id: open(s, { entity_name: 'Brian' }).session_id });
    expect(empty).toMatchObject({ summary: null, summary_source: 'none' });
  });
});

describe('search_sessions', () => {
  function seed(s: EpisodicService) {
    const brian = open(s, { entity_name: 'Brian' }).session_id;
    const anna = open(s, { entity_name: 'Anna' }).session_id;
    const a = turn(
      s,
      brian,
      'user',
      'The garden needs watering; water the garden beds by the garden shed every evening.',
    );
    const b = turn(s, brian, 'assistant', 'I will remind you about the garden.');
    const c = turn(s, anna, 'user', 'Can you order new garden gloves?');
    turn(s, anna, 'user', 'What is the weather tomorrow?');
    return { brian, anna, a: a.turn_id, b: b.turn_id, c: c.turn_id };
  }

  it('ranks by BM25 with session, entity, role, ts and a snippet', async () => {
    const s = service();
    const ids = seed(s);
    const r = await search(s, { query: 'watering the garden' });
    expect(r.results[0]).toMatchObject({
      turn_id: ids.a,
      session_id: ids.brian,
      entity_name: 'Brian',
      role: 'user',
      session_status: 'open',
    });
    // Anna's turn only mentions the garden: her session covers too little of the query (evidence gate).
    expect(r.results.map((x) => x.turn_id).sort()).toEqual([ids.a, ids.b].sort());
    expect(r.results[0].score).toBeGreaterThan(r.results[1].score);
    expect(r.results[0].snippet).toMatch(/\[watering\]|\[garden\]/);
    expect(r.result).toContain(`session ${ids.brian} (Brian, user,`);
    // porter stemming: "gardens" finds "garden"
    expect((await search(s, { query: 'gardens' })).results).toHaveLength(3);
  });

  it('filters by entity and answers an unknown entity with nothing', async () => {
    const s = service();
    const ids = seed(s);
    const r = await search(s, { query: 'garden', entity_name: 'anna' });
    expect(r.results.map((x) => x.turn_id)).toEqual([ids.c]);
    const none = await search(s, { query: 'garden', entity_name: 'Zed' });
    expect(none.results).toEqual([]);
    expect(none.warnings[0]).toMatch(/no entity named/);
    expect((await search(s, { query: 'garden', limit: 1 })).results).toHaveLength(1);
  });

  it('treats FTS syntax in the query as plain words', async () => {
    const s = service();
    seed(s);
    for (const q of [
      '"a" OR b*',
      'NEAR(',
      'col:x',
      '*',
      '"',
      'garden AND NOT',
      'content:garden',
      '^garden',
      '(garden',
      "'; DROP TABLE sessions; --",
    ]) {
      await expect(search(s, { query: q }), q).resolves.toBeDefined();
    }
    expect((await search(s, { query: 'garden:garden' })).results).toHaveLength(3); // a column filter is just two words
    expect((await search(s, { query: '(garden' })).results).toHaveLength(3);
    // AND/NOT are just words: "not" appears in no conversation, so nothing covers the query well enough.
    expect((await search(s, { query: 'garden AND NOT' })).results).toEqual([]);
    const star = await search(s, { query: '*' });
    expect(star.results).toEqual([]);
    expect(star.warnings[0]).toMatch(/no searchable words/);
    expect(turnsMatch('"a" OR b* NEAR(x)')).toBe('"near"'); // single letters and stopwords (or) dropped; the rest quoted
    expect(turnsMatch('what is the')).toBe('"what" OR "is" OR "the"'); // only stopwords: keep them
  });
});
