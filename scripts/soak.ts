/**
 * `npm run soak [-- --minutes 10 --rate 2000 --interval 60 --warmup 180]`: runs `hearth serve` as a
 * child process and, for the whole period, publishes `rate` readings/s over MQTT QoS 1 while issuing
 * recall (10/s) and remember (2/s) traffic over HTTP. It samples the hub's RSS every 5 s (from
 * /metrics) and reports, per interval, the RSS floor and peak, the settled RSS and the p95 recall
 * latency. At the end it checks every acknowledged reading and memory is stored.
 *
 * Judging memory: RSS follows V8's garbage-collection sawtooth, and under this load a major
 * collection comes every few minutes, so an interval's floor is sometimes a GC trough and sometimes
 * not. The *settled* RSS of an interval is the lowest sample in the trailing `settle` window (3 min,
 * never reaching back into warm-up): the level the process returns to after a collection. A leak
 * raises it; the sawtooth does not. Warm-up (default 3 min, at most a third of the run) covers
 * SQLite's page cache filling to its 16 MB bound and V8 sizing its heap.
 *
 * Targets: settled RSS within ±10 % after warm-up (max/min of the judged intervals), p95 recall
 * stable within 2×, zero errors, zero lost — counted per series: each room's stored readings reach
 * what was acknowledged for that room. Exit 1 when a target is missed.
 *
 * `--churn 3`: a second process (`hearth mcp`) forgets and re-creates entities every 3 s beside the
 * load, and every reading must end in the series it was sent to (soak-churn.ts).
 */
import { parseArgs } from 'node:util';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { percentile } from './lib/eval-hub.js';
import { startChurn, type ChurnReport } from './soak-churn.js';

export interface SoakOptions {
  seconds: number;
  rate: number;
  intervalSeconds: number;
  /** Seconds not judged for memory (default min(180, seconds / 3)). */
  warmupSeconds?: number;
  /** Trailing window of the settled RSS (default 180 s). */
  settleSeconds?: number;
  /** Seconds between forget / re-create cycles of a second process; off when absent. */
  churnSeconds?: number;
  log?: (line: string) => void;
}

export interface SoakReport {
  samples: {
    t: number;
    rss_mb: number;
    rss_peak_mb: number;
    settled_mb: number | null;
    p95_ms: number;
    recalls: number;
    readings: number;
    breakdown: string;
  }[];
  acked: number;
  stored: number;
  memoriesAcked: number;
  memoriesStored: number;
  errors: string[];
  /** Rooms whose stored readings fall short of their acknowledged ones. */
  shortSeries: string[];
  churn?: ChurnReport;
  rssDriftPct: number;
  p95Ratio: number;
  ok: boolean;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Anonymous / file-backed / shared resident memory of a process, from /proc (Linux only). */
function procBreakdown(pid: number | undefined): string {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0) / 1024;
    return `anon ${kb('RssAnon').toFixed(1)} file ${kb('RssFile').toFixed(1)} shmem ${kb('RssShmem').toFixed(1)}`;
  } catch {
    return '';
  }
}

export async function soak(opts: SoakOptions): Promise<SoakReport> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const dir = mkdtempSync(join(tmpdir(), 'hearth-soak-'));
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const base = `http://127.0.0.1:${httpPort}`;
  const child = spawn(process.execPath, [join(process.cwd(), 'dist/src/cli.js'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HEARTH_DATA_DIR: join(dir, 'data'),
      HEARTH_HTTP_PORT: String(httpPort),
      HEARTH_MQTT_PORT: String(mqttPort),
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_LOG_LEVEL: 'error',
      HEARTH_RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Ctrl-C or a timeout must not leave the hub running.
  const onSignal = () => {
    child.kill('SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  const errors: string[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      if (
        await fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const json = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (let i = 0; i < 200; i++)
      await json('/remember', {
        entity_name: `person${i % 20}`,
        fact: `person${i % 20} likes hobby number ${i} on weekends`,
      });

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { reconnectPeriod: 0 });
    const churn = opts.churnSeconds
      ? await startChurn({
          dataDir: join(dir, 'data'),
          mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
          everySeconds: opts.churnSeconds,
        })
      : null;
    const ackedBy = new Array<number>(50).fill(0);
    let acked = 0;
    let sent = 0;
    let memoriesAcked = 0;
    let latencies: number[] = [];
    let recalls = 0;
    const samples: SoakReport['samples'] = [];
    const started = Date.now();
    const end = started + opts.seconds * 1000;
    let stop = false;

    const publisher = (async () => {
      const tick = 50; // ms
      while (!stop && Date.now() < end) {
        const due = Math.floor(((Date.now() - started) / 1000) * opts.rate) - sent;
        for (let i = 0; i < due; i++) {
          const n = sent++;
          client.publish(`hearth/record/room${n % 50}/temperature`, String(18 + (n % 70) / 10), { qos: 1 }, (e) =>
            e ? errors.push(`mqtt: ${e.message}`) : (acked++, ackedBy[n % 50]++),
          );
        }
        await new Promise((r) => setTimeout(r, tick));
      }
    })();
    const recaller = (async () => {
      while (!stop && Date.now() < end) {
        const t0 = performance.now();
        const r = await json('/recall', { query: `hobby number ${recalls % 200}`, top_k: 5 }).catch((e: Error) => ({
          ok: false,
          status: e.message,
        }));
        latencies.push(performance.now() - t0);
        recalls++;
        if (!r.ok) errors.push(`recall: ${r.status}`);
        await new Promise((res) => setTimeout(res, 100));
      }
    })();
    const rememberer = (async () => {
      let i = 0;
      while (!stop && Date.now() < end) {
        const r = await json('/remember', {
          entity_name: 'soak',
          fact: `soak fact ${i++} about the garden shed`,
        }).catch((e: Error) => ({ ok: false, status: e.message }));
        if (r.ok) memoriesAcked++;
        else errors.push(`remember: ${r.status}`);
        await new Promise((res) => setTimeout(res, 500));
      }
    })();

    // Every 5 s: RSS for the interval's floor/peak and for the settled RSS (see the top comment).
    const warmup = opts.warmupSeconds ?? Math.min(180, opts.seconds / 3);
    const settle = opts.settleSeconds ?? 180;
    const raw: { t: number; rss: number }[] = [];
    let floor = Infinity;
    let peak = 0;
    let breakdown = '';
    let nextReport = started + opts.intervalSeconds * 1000;
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, Math.min(5000, end - Date.now())));
      const metrics = await fetch(`${base}/metrics`).then((r) => r.text());
      const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0) / 2 ** 20;
      const rss = gauge('process_resident_memory_bytes');
      if (rss < floor)
        breakdown = `heap ${gauge('nodejs_heap_used_bytes').toFixed(1)} ext ${gauge('nodejs_external_memory_bytes').toFixed(1)} ${procBreakdown(child.pid)}`;
      floor = Math.min(floor, rss);
      raw.push({ t: (Date.now() - started) / 1000, rss });
      peak = Math.max(peak, rss);
      if (Date.now() < nextReport - 500 && Date.now() < end - 500) continue;
      nextReport += opts.intervalSeconds * 1000;
      const t = (Date.now() - started) / 1000;
      const window = raw.filter((x) => x.t > Math.max(warmup, t - settle)).map((x) => x.rss);
      const judged = t - opts.intervalSeconds >= warmup - 1; // the whole interval is past warm-up
      const settled = judged && window.length ? Math.round(Math.min(...window) * 10) / 10 : null;
      const s = {
        t: Math.round(t),
        rss_mb: Math.round(floor * 10) / 10,
        rss_peak_mb: Math.round(peak * 10) / 10,
        settled_mb: settled,
        p95_ms: Math.round(percentile(latencies, 95) * 10) / 10,
        recalls: latencies.length,
        readings: acked,
        breakdown,
      };
      samples.push(s);
      log(
        `t=${s.t}s rss floor=${s.rss_mb} MB peak=${s.rss_peak_mb} MB settled=${s.settled_mb ?? '(warm-up)'} MB p95 recall=${s.p95_ms} ms recalls=${s.recalls} readings acked=${s.readings} (at floor, MB: ${breakdown})`,
      );
      latencies = [];
      floor = Infinity;
      peak = 0;
    }
    stop = true;
    await Promise.all([publisher, recaller, rememberer, churn?.stop()]);
    for (let i = 0; i < 100 && acked < sent && errors.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await client.endAsync(true); // a broker that stopped acknowledging must not hang the soak
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));

    const db = new Database(join(dir, 'data', 'hearth.db'), { readonly: true });
    const stored = (
      db
        .prepare(
          "SELECT count(*) AS n FROM readings r JOIN series s ON s.id = r.series_id WHERE s.metric = 'temperature'",
        )
        .get() as { n: number }
    ).n;
    const memoriesStored = (
      db
        .prepare("SELECT count(*) AS n FROM memories m JOIN entities e ON e.id = m.entity_id WHERE e.name = 'soak'")
        .get() as { n: number }
    ).n;
    const perRoom = db
      .prepare(
        "SELECT count(*) FROM readings r JOIN series s ON s.id = r.series_id JOIN entities e ON e.id = s.entity_id WHERE e.name = ? AND s.metric = 'temperature'",
      )
      .pluck();
    const shortSeries = ackedBy.flatMap((n, room) => {
      const have = perRoom.get(`room${room}`) as number;
      return have < n ? [`room${room}/temperature: ${have} stored of ${n} acknowledged`] : [];
    });
    const churnReport = churn?.verify(db);
    db.close();
    const settledAll = samples.flatMap((s) => (s.settled_mb === null ? [] : [s.settled_mb]));
    const rssDriftPct = settledAll.length ? (Math.max(...settledAll) / Math.min(...settledAll) - 1) * 100 : 0;
    const p95s = samples.map((s) => s.p95_ms).filter((x) => x > 0);
    const p95Ratio = p95s.length ? Math.max(...p95s) / Math.min(...p95s) : 1;
    const ok =
      errors.length === 0 &&
      stored >= acked &&
      shortSeries.length === 0 &&
      !churnReport?.problems.length &&
      memoriesStored >= memoriesAcked &&
      rssDriftPct <= 10 &&
      p95Ratio <= 2;
    return {
      samples,
      acked,
      stored,
      memoriesAcked,
      memoriesStored,
      errors,
      shortSeries,
      churn: churnReport,
      rssDriftPct,
      p95Ratio,
      ok,
    };
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('soak.js')) {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '10' },
      rate: { type: 'string', default: '2000' },
      interval: { type: 'string', default: '60' },
      warmup: { type: 'string' },
      churn: { type: 'string' },
    },
  });
  const r = await soak({
    seconds: Number(values.minutes) * 60,
    rate: Number(values.rate),
    intervalSeconds: Number(values.interval),
    warmupSeconds: values.warmup === undefined ? undefined : Number(values.warmup),
    churnSeconds: values.churn === undefined ? undefined : Number(values.churn),
  });
  console.log(
    '\n| minute | RSS floor MB | RSS peak MB | settled RSS MB | p95 recall ms | recalls | readings acked |\n|---|---|---|---|---|---|---|',
  );
  for (const s of r.samples)
    console.log(
      `| ${(s.t / 60).toFixed(1)} | ${s.rss_mb} | ${s.rss_peak_mb} | ${s.settled_mb ?? 'warm-up'} | ${s.p95_ms} | ${s.recalls} | ${s.readings} |`,
    );
  console.log(
    `\nreadings acked ${r.acked}, stored ${r.stored} (rooms short of their acks: ${r.shortSeries.length}); memories acked ${r.memoriesAcked}, stored ${r.memoriesStored}; errors ${r.errors.length}`,
  );
  if (r.churn) {
    const c = r.churn;
    console.log(
      `churn: ${c.cycles} cycles, ${c.forgets} forgets, ${c.freshCreated} new entities; victim readings acked ${c.victimAcked}, ${c.victimMustExist} sent after their victim's last forget, stored ${c.victimStored}; problems ${c.problems.length}`,
    );
    if (c.problems.length) console.log(c.problems.slice(0, 10).join('\n'));
  }
  if (r.shortSeries.length) console.log(r.shortSeries.slice(0, 10).join('\n'));
  console.log(
    `settled RSS max/min after warm-up +${r.rssDriftPct.toFixed(1)}% (target ≤ 10%); p95 max/min ${r.p95Ratio.toFixed(2)} (target ≤ 2); ${r.ok ? 'PASS' : 'FAIL'}`,
  );
  if (r.errors.length) console.log(r.errors.slice(0, 10).join('\n'));
  process.exit(r.ok ? 0 : 1);
}
