/**
 * Bytes a running `hearth serve` logs per 10,000 HTTP readings, at the default level, as journald
 * would receive them (stdout and stderr not a terminal: JSON lines).
 *
 *   node dist/scripts/bench/log-volume.js [--readings 10000] [--level info]
 *
 * The hub is a real child process on free ports; 8 keep-alive clients POST /record one reading each.
 * Prints one line: bytes, lines, bytes per reading.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, sleep, tempDir } from './common.js';

export async function logVolume(
  readings: number,
  level = 'info',
): Promise<{ bytes: number; lines: number; startBytes: number }> {
  const tmp = tempDir('logs');
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [join(process.cwd(), 'dist/src/cli.js'), 'serve'], {
    env: {
      PATH: process.env.PATH,
      HEARTH_DATA_DIR: tmp.dir,
      HEARTH_HTTP_PORT: String(httpPort),
      HEARTH_MQTT_PORT: String(mqttPort),
      MEMORY_AI_PROVIDER: 'local',
      HEARTH_TZ: 'UTC',
      HEARTH_LOG_LEVEL: level,
      HEARTH_RATE_LIMIT_PER_MINUTE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bytes = 0;
  let lines = 0;
  const count = (d: Buffer) => {
    bytes += d.length;
    for (const c of d) if (c === 10) lines++;
  };
  child.stdout.on('data', count);
  child.stderr.on('data', count);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const post = (path: string, body: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: httpPort,
          path,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  try {
    for (let i = 0; ; i++) {
      const up = await fetch(`http://127.0.0.1:${httpPort}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 400 || child.exitCode !== null) throw new Error('hearth serve did not start');
      await sleep(50);
    }
    await sleep(200);
    const startBytes = bytes;
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < readings) {
          const n = next++;
          const status = await post(
            '/record',
            JSON.stringify({ entity_name: `room_${n % 20}`, metric: 'temperature', value: 20 + (n % 50) / 10 }),
          );
          if (status !== 201 && status !== 200) throw new Error(`/record answered ${status}`);
        }
      }),
    );
    await sleep(300);
    return { bytes: bytes - startBytes, lines, startBytes };
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    tmp.remove();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { readings: { type: 'string', default: '10000' }, level: { type: 'string', default: 'info' } },
  });
  const n = Number(values.readings);
  const r = await logVolume(n, values.level);
  console.log(
    `log volume at ${values.level}: ${r.bytes} bytes for ${n} HTTP readings (${(r.bytes / n).toFixed(1)} B/reading); start-up ${r.startBytes} bytes, ${r.lines} lines in all`,
  );
}
