import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { buildApp } from '../../src/http/app.js';
import { loggerOptions, prettySink, rateLimited } from '../../src/lib/log.js';
import { buildTestHub, tempDir, type TestHub } from '../helpers/hub.js';
import { startServe } from '../helpers/process.js';

describe('rateLimited', () => {
  it('writes the first of a kind per window and then says how many were held back', () => {
    let t = 0;
    const out: string[] = [];
    const warn = rateLimited(
      (m) => out.push(m),
      60_000,
      () => t,
    );
    warn('scheduler: job rollups failed after 31 ms');
    t = 10_000;
    warn('scheduler: job rollups failed after 45 ms');
    warn('scheduler: job rollups failed after 7 ms');
    warn('mqtt: publishing memory_added failed');
    t = 61_000;
    warn('scheduler: job rollups failed after 12 ms');
    t = 62_000;
    warn('scheduler: job rollups failed after 13 ms');
    expect(out).toEqual([
      'scheduler: job rollups failed after 31 ms',
      'mqtt: publishing memory_added failed',
      'scheduler: job rollups failed after 12 ms (2 more like this in the last 60 s)',
    ]);
  });
});

describe('log format', () => {
  it('is JSON without pid/hostname when not a terminal, a short human line on one', () => {
    const json = loggerOptions('info', 'auto', { write: () => true, isTTY: false }) as {
      base: unknown;
      stream: unknown;
      level: string;
    };
    expect(json.base).toBeNull();
    expect(json.level).toBe('info');
    const lines: string[] = [];
    const tty = { write: (s: string) => lines.push(s), isTTY: true };
    const pretty = loggerOptions('debug', 'auto', tty) as { stream: { write(s: string): void } };
    expect(pretty.stream).not.toBe(tty);
    pretty.stream.write(
      `${JSON.stringify({ level: 40, time: new Date(2026, 0, 2, 3, 4, 5, 6).getTime(), msg: 'disk nearly full', free_mb: 12 })}\n`,
    );
    expect(lines).toEqual(['03:04:05.006 WARN  disk nearly full free_mb=12\n']);
    const forced = loggerOptions('info', 'json', tty) as { stream: unknown };
    expect(forced.stream).toBe(tty);
    const out: string[] = [];
    prettySink({ write: (s: string) => out.push(s) }).write('not json\n');
    expect(out).toEqual(['not json\n']);
  });
});

describe('HTTP request lines', () => {
  let hub: TestHub;
  const lines: Record<string, unknown>[] = [];
  let app: Awaited<ReturnType<typeof buildApp>>;
  const setup = async (level: string) => {
    lines.length = 0;
    app = await buildApp({
      services: hub.services,
      logger: loggerOptions(level, 'json', { write: (s: string) => lines.push(JSON.parse(s)) }),
    });
  };
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, payload });
  beforeAll(async () => {
    hub = await buildTestHub();
  });
  afterAll(async () => {
    await hub.close();
  });

  it('at info: ingest and health successes write nothing, other requests one line, repeated 4xx once', async () => {
    await setup('info');
    for (let i = 0; i < 20; i++)
      expect((await post('/record', { entity_name: 'hall', metric: 'temperature', value: 20 + i })).statusCode).toBe(
        200,
      );
    await post('/record/bulk', { readings: [{ entity_name: 'hall', metric: 'humidity', value: 40 }] });
    await app.inject({ method: 'GET', url: '/health' });
    expect(lines).toEqual([]);
    await post('/recall', { query: 'hall' });
    expect(lines.map((l) => l.msg)).toEqual([expect.stringMatching(/^POST \/recall 200 \d+\.\d ms$/)]);
    lines.length = 0;
    for (let i = 0; i < 50; i++)
      expect((await post('/record', { entity_name: 'hall', metric: 'temperature' })).statusCode).toBe(400);
    await app.inject({ method: 'GET', url: '/nowhere' });
    expect(lines.map((l) => l.msg)).toEqual([
      expect.stringMatching(/^POST \/record 400 /),
      expect.stringMatching(/^GET \/nowhere 404 /),
    ]);
    expect(lines.every((l) => l.level === 30 && !('pid' in l) && !('hostname' in l))).toBe(true);
    await app.close();
  });

  it('at debug: one line per ingest request', async () => {
    await setup('debug');
    for (let i = 0; i < 5; i++) await post('/record', { entity_name: 'hall', metric: 'temperature', value: 20 + i });
    expect(lines.map((l) => [l.level, l.msg])).toEqual(
      Array.from({ length: 5 }, () => [20, expect.stringMatching(/^POST \/record 200 /)]),
    );
    await app.close();
  });
});

describe('hearth serve start line', () => {
  it('names the addresses actually bound, as JSON lines when not on a terminal', async () => {
    const dataDir = join(tempDir(), 'data');
    const s = Object.assign(
      await startServe(dataDir, {
        HEARTH_HTTP_HOST: '0.0.0.0',
        HEARTH_ALLOW_UNAUTHENTICATED: 'true',
        HEARTH_LOG_LEVEL: 'info',
      }),
      { dataDir },
    );
    try {
      for (let i = 0; i < 40 && !s.output().includes('hearth serving'); i++)
        await new Promise((r) => setTimeout(r, 50));
      const lines = s
        .output()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string });
      const port = new URL(s.http).port;
      const start = lines.map((l) => l.msg).filter((m) => m.startsWith('hearth serving'));
      expect(start).toEqual([
        `hearth serving: http http://0.0.0.0:${port}; mqtt ${s.mqtt} (embedded); data ${s.dataDir}; config (defaults)`,
      ]);
    } finally {
      s.child.kill('SIGTERM');
      await new Promise((r) => s.child.once('exit', r));
    }
  });
});
