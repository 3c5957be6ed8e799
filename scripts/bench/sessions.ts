/**
 * Part of `neural`: what a `search_sessions` call costs after a day of conversations (N turns logged
 * through log_turn), with use-lite.
 *   - after the background has embedded the turns (what a search a moment later sees);
 *   - straight after a backlog the background has not seen (turns inserted without log_turn, as an
 *     import does): the search embeds at most 64 itself;
 *   - the baseline, measured in the same run: the search embedding every turn itself first, as
 *     search_sessions did before turns were embedded in the background (≤ 512 a search).
 */
import type { UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { scratchServices } from '../lib/eval-hub.js';
import { since, type BenchOptions, type BenchRow } from './common.js';

const QUESTION = "where is our daughter's celebration being held";

export async function benchSessionSearch(neural: UseLiteEmbedder, opts: BenchOptions): Promise<BenchRow[]> {
  const turns = opts.quick ? 100 : 300;
  const text = (i: number) =>
    `Turn ${i}: we talked about the ${['boiler', 'school run', 'garden', 'birthday party', 'shopping'][i % 5]} again, item ${i}`;
  const h = scratchServices(neural);
  try {
    const { episodic } = h.services;
    const { session_id } = episodic.openSession({ entity_name: 'Anna', meta: {} });
    for (let i = 0; i < turns; i++) episodic.logTurn({ session_id, role: 'user', content: text(i) });
    await episodic.embedTurns(); // the background's work, finished
    let t0 = performance.now();
    await episodic.searchSessions({ query: QUESTION, limit: 10 });
    const warm = since(t0);

    h.db.transaction(() => {
      for (let i = 0; i < turns; i++) episodic.repo.insertTurn(session_id, 'assistant', text(turns + i), 10_000 + i);
    })();
    t0 = performance.now();
    await episodic.searchSessions({ query: QUESTION, limit: 10 });
    const backlog = since(t0);

    t0 = performance.now();
    await neural.embed(Array.from({ length: Math.min(turns, 512) }, (_, i) => text(2 * turns + i)));
    await episodic.searchSessions({ query: QUESTION, limit: 10 });
    const before = since(t0);
    await episodic.embedTurns();
    return [
      {
        part: 'recall',
        what: `search_sessions after ${turns} logged turns, embedded in the background`,
        value: warm,
        unit: 'ms',
        baseline: { what: 'the search embedding them itself (before)', value: before },
        ratio: warm / before,
      },
      {
        part: 'recall',
        what: `search_sessions straight after ${turns} turns the background has not seen (it embeds ≤ 64)`,
        value: backlog,
        unit: 'ms',
        baseline: { what: 'the search embedding them itself (before)', value: before },
        ratio: backlog / before,
      },
    ];
  } finally {
    h.close();
  }
}
