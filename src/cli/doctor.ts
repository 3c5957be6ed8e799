/** `hearth doctor`: disk, integrity, foreign keys, schema version (ops), counts (status), embedder; exit 1 on failure. */
import { createHub } from '../main.js';
import type { CommandContext } from './context.js';
import { ops, type Check } from '../tiers/ops/ops.service.js';
import { describeWordNet } from '../ai/wordnet.js';
import { prepareQuery } from '../ai/wordnet-coverage.js';
import { within } from '../lib/within.js';

export type { Check };

/**
 * How long the embedder may take to answer: a cold use-lite load takes seconds (longer on a busy Pi);
 * one that never finishes must not keep doctor from answering.
 */
export const EMBEDDER_WAIT_MS = 60_000;
/** How long closing the hub may take once the checks are printed; then doctor exits without waiting. */
export const CLOSE_WAIT_MS = 10_000;

export async function runDoctor({ config, flags }: CommandContext): Promise<number> {
  const checks: Check[] = [ops.disk(config.data_dir, config.disk_min_free_mb)];
  for (const left of ops.restoreLeftovers(config.data_dir)) {
    checks.push({
      name: 'restore',
      ok: true,
      detail: `${left} is left from an interrupted restore (the database was not touched); it is removed by the next restore`,
    });
  }
  let hub: Awaited<ReturnType<typeof createHub>> | undefined;
  try {
    checks.push(...ops.databaseChecks(config.data_dir));
    hub = await createHub({ config: { ...config, http: { ...config.http, enabled: false } } });
    const s = hub.services;
    const snap = s.status.snapshot();
    checks.push({
      name: 'counts',
      ok: true,
      detail: `${snap.entities} entities, ${snap.memories.total} memories, ${snap.relations.total} relations`,
    });
    const answers = await within(s.embedder.ping(), EMBEDDER_WAIT_MS, 'late' as const);
    const said =
      answers === 'late'
        ? `did not answer within ${EMBEDDER_WAIT_MS / 1000} s`
        : answers
          ? 'answers'
          : 'does not answer';
    checks.push({
      name: 'embedder',
      ok: answers === true,
      detail: `${s.embedder.provider}/${s.embedder.model} (${s.embedder.dim} dims) ${said}${s.embedder.note ? ` — ${s.embedder.note}` : ''}`,
    });
    // Opened here (not on the first query) so the check shows its load cost or why it is missing.
    const wordnetOk = s.wordnet.available();
    // Two sample questions: the first opens the caches, the second shows the cost of a new question.
    prepareQuery(s.wordnet, 'where are my keys');
    prepareQuery(s.wordnet, 'who looks after the boiler');
    checks.push({
      name: 'wordnet',
      ok: true,
      detail: `${wordnetOk ? '' : 'not available: '}${describeWordNet(s.wordnet.stats())}`,
    });
    checks.push({
      name: 'vectors',
      ok: snap.vectors.state === 'ready',
      detail: snap.vectors.stale_reason ?? `current; ${snap.pending_embedding} memories waiting for a vector`,
    });
    if (config.mqtt.mode === 'external') {
      const u = new URL(config.mqtt.url || 'mqtt://invalid:1');
      const up = await ops.reachable(u.hostname, Number(u.port || 1883));
      checks.push({
        name: 'broker',
        ok: up,
        detail: `external ${config.mqtt.url} ${up ? 'answers' : 'does not answer'}`,
      });
    } else if (config.mqtt.mode === 'embedded') {
      checks.push(await embeddedBroker(config.data_dir, `${config.mqtt.host}:${config.mqtt.port}`));
    }
  } catch (e) {
    checks.push({ name: 'open', ok: false, detail: (e as Error).message });
  }
  // Printed before the hub closes: what doctor found is said even if closing fails or hangs.
  const ok = checks.every((c) => c.ok);
  if (flags.json) process.stdout.write(JSON.stringify({ ok, checks }, null, 2) + '\n');
  else for (const c of checks) process.stdout.write(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name.padEnd(13)} ${c.detail}\n`);
  const code = ok ? 0 : 1;
  if (hub) {
    const closed = await within(
      hub.stop().then(
        () => true,
        (e: Error) => (process.stderr.write(`hearth doctor: closing the hub failed: ${e.message}\n`), true),
      ),
      CLOSE_WAIT_MS,
      false,
    );
    if (!closed) {
      // A thread that does not stop would keep the process alive; the database is safe without the close.
      process.stderr.write(`hearth doctor: the hub did not close within ${CLOSE_WAIT_MS / 1000} s; exiting\n`);
      process.exit(code);
    }
  }
  return code;
}

/**
 * The embedded broker runs inside `hearth serve`: asked where that serve recorded it listens, never
 * at the config's port, where another hub's broker may answer (issue #35 item 15). No serve running
 * is fine (it starts with `hearth serve`); a running serve whose broker does not answer is not.
 */
async function embeddedBroker(dataDir: string, configured: string): Promise<Check> {
  const serve = ops.runningServe(dataDir);
  if (!serve) return { name: 'broker', ok: true, detail: 'embedded: not running (starts with hearth serve)' };
  const who = `hearth serve pid ${serve.pid}`;
  if (!serve.ports)
    return { name: 'broker', ok: true, detail: `embedded: ${who} runs; restart it to record its ports` };
  if (!serve.ports.mqtt) return { name: 'broker', ok: true, detail: `embedded: ${who} runs with MQTT off` };
  const url = new URL(serve.ports.mqtt);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const at = `${url.hostname}:${url.port || 1883}`;
  const up = await ops.reachable(host, Number(url.port || 1883));
  const note = at === configured ? '' : ` (the configuration says ${configured}; the running hub listens on ${at})`;
  return { name: 'broker', ok: up, detail: `embedded ${at} (${who}) ${up ? 'answers' : 'does not answer'}${note}` };
}
