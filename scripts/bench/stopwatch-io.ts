/**
 * The stopwatches the suite used to hold over timeouts and processes (scripts/bench/stopwatch.ts says
 * why they are here), each against the same wait or process without Hearth in the same run:
 *
 *   test/ai/ollama.test.ts, openai.test.ts  a 200 ms timeout against a hanging server: < 2 s (embed),
 *                                           < 1.5 s (ping)
 *   test/ai/providers.test.ts               auto gives up on a hanging Ollama after about 2 s: < 4 s
 *   test/durability/sigterm.test.ts         `hearth serve` exits on SIGTERM within 10 s
 *
 * The doors' rows (slow connections, /health under 500 clients, hostile requests, recurrences) are in
 * stopwatch-http.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { createOllamaEmbedder, pingOllama } from '../../src/ai/ollama.js';
import { createOpenAiEmbedder, pingOpenAi } from '../../src/ai/openai.js';
import { createAi } from '../../src/ai/providers.js';
import type { UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { freePort, sleep, type BenchOptions, type BenchRow } from './common.js';
import { benchStopwatchHttp } from './stopwatch-http.js';
import { row } from './stopwatch-row.js';

/** A server that accepts every request and never answers. */
async function hanging(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(() => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** ms until `p` settles (either way). */
async function timed(p: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await p().catch(() => undefined);
  return performance.now() - t0;
}

async function timeoutRows(): Promise<BenchRow[]> {
  const f = await hanging();
  try {
    const bare = await timed(() => sleep(200));
    const rows = [
      [
        'Ollama embed, 200 ms timeout, hanging server',
        () => createOllamaEmbedder({ baseUrl: f.url, model: 'm', dim: 8, timeoutMs: 200 }).embed(['hello']),
        2000,
        'ollama.test.ts',
      ],
      [
        'OpenAI embed, 200 ms timeout, hanging server',
        () => createOpenAiEmbedder({ baseUrl: f.url, apiKey: 'k', model: 'm', dim: 4, timeoutMs: 200 }).embed(['x']),
        2000,
        'openai.test.ts',
      ],
      ['pingOllama, 200 ms timeout, hanging server', () => pingOllama(f.url, 200), 1500, 'ollama.test.ts'],
      ['pingOpenAi, 200 ms timeout, hanging server', () => pingOpenAi(f.url, 'k', 200), 1500, 'openai.test.ts'],
    ] as const;
    const out: BenchRow[] = [];
    for (const [what, call, bound, file] of rows)
      out.push(
        row(what, await timed(call), { what: 'a bare 200 ms timer', value: bare }, bound, `${file} held < ${bound} ms`),
      );
    const broken = (): UseLiteEmbedder => ({
      ...createLocalEmbedder(),
      provider: 'use-lite',
      ready: Promise.resolve(false),
      loadError: 'x',
      workers: 0,
      inFlight: 0,
      threadIds: [],
      runtime: undefined,
      runtimeNote: undefined,
      close: async () => {},
    });
    const cfg = {
      provider: 'auto',
      baseUrl: f.url,
      embedModel: 'nomic-embed-text',
      embedDim: 8,
      llmModel: 'llama3.2',
      timeoutSeconds: 30,
    } as const;
    const auto = await timed(() => createAi(cfg, { useLite: broken }));
    const bare2 = await timed(() => sleep(2000));
    out.push(
      row(
        'provider auto: give up on a hanging Ollama (2 s probe)',
        auto,
        { what: 'a bare 2 s timer', value: bare2 },
        4000,
        'providers.test.ts held < 4000 ms (and ≥ 1900 ms, still asserted there)',
      ),
    );
    return out;
  } finally {
    await f.close();
  }
}

/** Spawns `args`, waits until `ready(url)` answers, then ms from SIGTERM to exit (and the exit code). */
async function sigtermToExit(args: string[], env: Record<string, string>, port: number): Promise<number> {
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await sleep(50);
  }
  // Some work in flight when the signal lands, as in the test.
  const writes = Array.from({ length: 50 }, (_, n) =>
    fetch(`http://127.0.0.1:${port}/record`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ entity_name: 'stop_test', metric: 'http_seq', value: n }),
    }).catch(() => null),
  );
  await sleep(100);
  const t0 = performance.now();
  child.kill('SIGTERM');
  const code = await exited;
  const ms = performance.now() - t0;
  await Promise.all(writes);
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code} on SIGTERM`);
  return ms;
}

async function sigtermRow(): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-bench-sigterm-'));
  try {
    const cli = fileURLToPath(new URL('../../src/cli.js', import.meta.url));
    const port = await freePort();
    const hub = await sigtermToExit(
      [cli, 'serve'],
      {
        HEARTH_DATA_DIR: join(dir, 'data'),
        HEARTH_HTTP_PORT: String(port),
        HEARTH_MQTT_PORT: String(await freePort()),
        MEMORY_AI_PROVIDER: 'local',
        HEARTH_TZ: 'UTC',
        HEARTH_LOG_LEVEL: 'warn',
      },
      port,
    );
    const barePort = await freePort();
    const bareScript = `const s = require('node:http').createServer((q, r) => r.end('{}')).listen(${barePort}, '127.0.0.1');
      process.on('SIGTERM', () => { s.closeAllConnections(); s.close(() => process.exit(0)); });`;
    const bare = await sigtermToExit(['-e', bareScript], {}, barePort);
    return row(
      '`hearth serve` (dist/): SIGTERM to exit, 50 writes in flight',
      hub,
      { what: 'a bare node HTTP server, SIGTERM to exit', value: bare },
      10_000,
      'sigterm.test.ts held < 10 s (its flush, acks and WAL checkpoint are still asserted there)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The I/O half of `--only stopwatch`. */
export async function benchStopwatchIo(opts: BenchOptions): Promise<BenchRow[]> {
  opts.log('stopwatch: AI timeouts against a hanging server');
  const rows = await timeoutRows();
  opts.log('stopwatch: SIGTERM to exit');
  rows.push(await sigtermRow());
  rows.push(...(await benchStopwatchHttp(opts)));
  return rows;
}
