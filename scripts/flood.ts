/**
 * `node dist/scripts/flood.js [--seconds 10] [--only tokenless,runaway,slow,busy500,disk]`: how much
 * of a token holder's traffic gets through while one kind of client floods the hub (issue #35 items
 * 7, 8, 10) — the README's hardening note quotes it. For each flood a fresh hub (temp data dir,
 * a token, MQTT off, defaults otherwise) listens on 127.0.0.1; the flood runs in one worker thread
 * and the household in another (scripts/flood-worker.ts): a script posting /record every 100 ms on
 * fresh connections, Home Assistant's pooled keep-alive client every 200 ms, an assistant's
 * /remember every second, and a monitor's tokenless /health on a fresh connection every 250 ms.
 * Floods: `tokenless` 125 keep-alive connections asking /health every 0.7 s; `runaway` a token
 * holder keeping 200 /record requests in flight; `slow` 1,000 connections trickling headers that
 * never end; `busy500` 500 keep-alive token holders posting /record as fast as answered. `disk`:
 * no flood, a hub whose disk_min_free_mb is above the free space — every write must be 507.
 * Bounded: every flood stops after --seconds; traffic only to 127.0.0.1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseConfig } from '../src/config/load.js';
import { createHub } from '../src/main.js';
import { percentile } from './lib/eval-hub.js';
import type { FloodKind, HouseholdReport } from './flood-worker.js';

const TOKEN = 'flood-bench-token-0123456789abcdef';
const KINDS = ['tokenless', 'runaway', 'slow', 'busy500', 'disk'] as const;
type Kind = (typeof KINDS)[number];

function worker(data: object): Promise<{ stop(): Promise<unknown> }> {
  const w = new Worker(new URL('./flood-worker.js', import.meta.url), { workerData: data });
  return new Promise((resolve) =>
    w.once('message', () =>
      resolve({
        stop: () =>
          new Promise((r) => {
            w.once('message', (m) => void w.terminate().then(() => r(m)));
            w.postMessage('stop');
          }),
      }),
    ),
  );
}

const share = (m: Record<string, number>) => {
  const total = Object.values(m).reduce((a, b) => a + b, 0);
  const others = Object.entries(m)
    .filter(([s]) => s !== '200')
    .map(([s, c]) => `${c}×${s === '0' ? 'failed' : s}`)
    .join(', ');
  return `${m['200'] ?? 0}/${total} ok${others ? ` (${others})` : ''}`;
};

async function run(kind: Kind, seconds: number) {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-flood-'));
  const config = parseConfig({
    data_dir: join(dir, 'data'),
    http: { port: 0, token: TOKEN },
    mqtt: { mode: 'off' },
    ...(kind === 'disk' && { disk_min_free_mb: 1024 ** 4 }),
  });
  const hub = await createHub({ config, logger: false });
  try {
    await hub.start();
    const port = (hub.app.server.address() as { port: number }).port;
    if (process.env.FLOOD_PORT_FILE) writeFileSync(process.env.FLOOD_PORT_FILE, String(port));
    const f =
      kind === 'disk' ? undefined : await worker({ role: 'flood', kind: kind as FloodKind, port, token: TOKEN });
    await new Promise((r) => setTimeout(r, 1500)); // the flood takes hold
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const h = await worker({ role: 'household', port, token: TOKEN });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const house = (await h.stop()) as HouseholdReport;
    const flooded = f ? ((await f.stop()) as Record<string, number>) : {};
    lag.disable();
    const ms = house.healthMs;
    const rec = house.recordMs;
    console.log(
      `${kind.padEnd(9)} script /record ${share(house.record)}; HA pooled ${share(house.pooled)}; /remember ${share(house.remember)}; ` +
        `fresh /health ${share(house.healthStatus)}, p50 ${percentile(ms, 50).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms; ` +
        `script /record p50 ${percentile(rec, 50).toFixed(0)} ms, max ${Math.max(...rec).toFixed(0)} ms; ` +
        `hub event-loop delay p50 ${(lag.percentile(50) / 1e6).toFixed(0)} ms, max ${(lag.max / 1e6).toFixed(0)} ms; ` +
        `flood answered ${JSON.stringify(flooded)}`,
    );
  } finally {
    await hub.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, only: { type: 'string', default: KINDS.join(',') } },
});
const seconds = Math.min(60, Number(values.seconds));
for (const kind of values.only!.split(',') as Kind[]) {
  if (!KINDS.includes(kind)) throw new Error(`--only: unknown flood ${kind} (${KINDS.join(', ')})`);
  await run(kind, seconds);
}
