/**
 * The two sides of `scripts/flood.ts`, each in its own worker thread (its own event loop, as other
 * processes would be): `flood` — one kind of client starving the hub — and `household` — a token
 * holder's traffic beside it, counted by status, with fresh-connection /health latencies. Traffic
 * goes to 127.0.0.1 only; both stop when the parent posts 'stop' and post their counts.
 */
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

export type FloodKind = 'tokenless' | 'runaway' | 'slow' | 'busy500';
export interface FloodSpec {
  role: 'flood' | 'household';
  kind?: FloodKind;
  port: number;
  token: string;
}
export interface HouseholdReport {
  record: Record<string, number>;
  pooled: Record<string, number>;
  remember: Record<string, number>;
  healthMs: number[];
  healthStatus: Record<string, number>;
  /** ms of each of the script's /record. */
  recordMs: number[];
}

const { role, kind, port, token } = workerData as FloodSpec;
let stopped = false;
let n = 0;
const reading = () =>
  JSON.stringify({
    entity_name: 'Kitchen',
    metric: 'temperature',
    value: 20 + (n++ % 10),
    ts: Math.floor(Date.now() / 1000),
  });

function send(
  path: string,
  opts: { method?: string; body?: string; auth?: boolean; agent?: Agent | false; timeoutMs?: number } = {},
): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        agent: opts.agent ?? false,
        timeout: opts.timeoutMs ?? 30_000,
        headers: {
          ...(opts.auth !== false && { authorization: `Bearer ${token}` }),
          ...(opts.body && { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(opts.body);
  });
}

const tally = (m: Record<string, number>, status: number) => void (m[status] = (m[status] ?? 0) + 1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `clients` keep-alive loops of `one`, pausing `pauseMs` after each answer. */
function loops(clients: number, pauseMs: number, one: (agent: Agent) => Promise<number>) {
  const agents: Agent[] = [];
  const counts: Record<string, number> = {};
  for (let i = 0; i < clients; i++) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    void (async () => {
      while (!stopped) {
        tally(counts, await one(agent));
        if (pauseMs) await sleep(pauseMs);
        else await new Promise((r) => setImmediate(r));
      }
    })();
  }
  return { counts, close: () => agents.forEach((a) => a.destroy()) };
}

function flood(): () => Record<string, number> {
  if (kind === 'tokenless') {
    // The issue's: 125 keep-alive connections without a token, GET /health on each every 0.7 s.
    const l = loops(125, 700, (agent) => send('/health', { agent, auth: false }));
    return () => (l.close(), l.counts);
  }
  if (kind === 'runaway' || kind === 'busy500') {
    // A token holder keeping 200 (or 500) /record requests in flight.
    const l = loops(kind === 'runaway' ? 200 : 500, 0, (agent) =>
      send('/record', { agent, method: 'POST', body: reading() }),
    );
    return () => (l.close(), l.counts);
  }
  // Slow headers: 1,000 connections sending a header line every 2 s, never finishing.
  const sockets: Socket[] = [];
  const counts: Record<string, number> = { opened: 0 };
  const open = () => {
    if (stopped) return;
    const s = connect(port, '127.0.0.1');
    s.on('error', () => undefined);
    s.on('close', () => setTimeout(open, 50)); // closed by the hub: open another
    s.write('POST /record HTTP/1.1\r\nHost: x\r\n');
    const t = setInterval(() => (s.writable ? s.write('X-Slow: 1\r\n') : clearInterval(t)), 2000);
    s.on('close', () => clearInterval(t));
    counts.opened++;
    sockets.push(s);
  };
  for (let i = 0; i < 1000; i++) open();
  return () => {
    for (const s of sockets) s.destroy();
    return counts;
  };
}

function household(): () => HouseholdReport {
  const report: HouseholdReport = {
    record: {},
    pooled: {},
    remember: {},
    healthMs: [],
    healthStatus: {},
    recordMs: [],
  };
  // A script posting a reading every 100 ms on a fresh connection.
  void (async () => {
    while (!stopped) {
      const t0 = performance.now();
      tally(report.record, await send('/record', { method: 'POST', body: reading() }));
      report.recordMs.push(performance.now() - t0);
      await sleep(100);
    }
  })();
  // Home Assistant's pooled client: keep-alive, 2 sockets, a reading every 200 ms.
  const pool = new Agent({ keepAlive: true, maxSockets: 2 });
  void (async () => {
    while (!stopped) {
      tally(report.pooled, await send('/record', { method: 'POST', body: reading(), agent: pool }));
      await sleep(200);
    }
  })();
  // An assistant remembering something every second.
  void (async () => {
    while (!stopped) {
      const body = JSON.stringify({ entity_name: 'Brian', fact: `Brian note ${n++}`, category: 'general' });
      tally(report.remember, await send('/remember', { method: 'POST', body }));
      await sleep(1000);
    }
  })();
  // A monitor: /health on a fresh connection every 250 ms, without the token.
  void (async () => {
    while (!stopped) {
      const t0 = performance.now();
      const status = await send('/health', { auth: false, timeoutMs: 10_000 });
      report.healthMs.push(performance.now() - t0);
      tally(report.healthStatus, status);
      await sleep(250);
    }
  })();
  return () => (pool.destroy(), report);
}

const finish = role === 'flood' ? flood() : household();
parentPort!.on('message', async (m) => {
  if (m !== 'stop') return;
  stopped = true;
  await sleep(200);
  parentPort!.postMessage(finish());
});
parentPort!.postMessage({ ready: true });
