import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/hub.js';
import { startServe, type ServeProcess } from '../helpers/process.js';
import { shellWord } from '../helpers/shell.js';

/**
 * Every command in these docs runs against a real `hearth serve` (HTTP + embedded broker), in
 * order, and must exit 0 (`curl -sf` fails on any HTTP error). `# expect…` lines in a block are
 * checked afterwards through the API. `hearth.local:8900` / `-h hearth.local` point at the hub,
 * `hearth …` is this build's CLI, `$HEARTH_TOKEN` its token.
 */
const FILES = [
  'docs/mqtt-mappings.md',
  'docs/http-api.md',
  'docs/home-assistant.md',
  'integrations/homeassistant/README.md',
  'docs/migrating-from-memory-mcp.md',
];
const TOKEN = 'docs-token';
const CLI = resolve('dist/src/cli.js');
const run = promisify(execFile);
let dir: string;
let hub: ServeProcess;
let env: Record<string, string>;

interface Block {
  commands: string[];
  expects: string[];
}
export function shellBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => {
    const lines = m[1]
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return {
      commands: lines.filter((l) => !l.startsWith('#')),
      expects: lines.filter((l) => l.startsWith('# expect')),
    };
  });
}

beforeAll(async () => {
  dir = tempDir('hearth-docs-');
  // Old payload times in the docs (Tasmota, OwnTracks) stay inside a long retention window.
  hub = await startServe(join(dir, 'data'), { HEARTH_API_TOKEN: TOKEN, RETENTION_DAYS: '36500' });
  env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    HEARTH_TOKEN: TOKEN,
    HEARTH_API_TOKEN: TOKEN,
    HEARTH_DATA_DIR: join(dir, 'data'),
    HEARTH_HTTP_PORT: new URL(hub.http).port,
    HEARTH_MQTT_PORT: new URL(hub.mqtt).port,
    MEMORY_AI_PROVIDER: 'local',
    HEARTH_TZ: 'UTC',
    RETENTION_DAYS: '36500',
  };
}, 60_000);
afterAll(async () => {
  hub?.child.kill('SIGTERM');
  await new Promise((r) => hub?.child.once('exit', r));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const local = (cmd: string) =>
  cmd
    .replaceAll('http://hearth.local:8900', hub.http)
    .replace(/-h hearth\.local\b/g, `-h 127.0.0.1 -p ${new URL(hub.mqtt).port}`)
    .replace(/^hearth /, `${shellWord(process.execPath)} ${shellWord(CLI)} `);
const api = async (path: string, body: unknown) => {
  const res = await fetch(`${hub.http}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, any>;
};

async function check(line: string): Promise<void> {
  let m = /^# expect: (\S+) (\S+) = (.+)$/.exec(line);
  if (m) {
    const points = (await api('/query_stream', { entity_name: m[1], metric: m[2] })).points as
      | { value: unknown }[]
      | undefined;
    const want = Number.isFinite(Number(m[3])) ? Number(m[3]) : m[3];
    expect(points?.at(-1)?.value, line).toEqual(want);
    return;
  }
  m = /^# expect-memory: (.+?) = (.+)$/.exec(line);
  if (m) {
    const facts = ((await api('/recall', { query: m[2], entity_name: m[1], mode: 'keyword' })).results ?? []).map(
      (r: { fact: string }) => r.fact,
    );
    expect(facts, line).toContain(m[2]);
    return;
  }
  m = /^# expect-location: (.+?) = (.+)$/.exec(line);
  if (m) {
    expect((await api('/find', { entity_name: m[1] })).container_name, line).toBe(m[2]);
    return;
  }
  throw new Error(`unknown expectation: ${line}`);
}

describe('every command in the docs runs', () => {
  it.each(FILES)(
    '%s',
    async (file) => {
      const blocks = shellBlocks(readFileSync(file, 'utf8'));
      expect(blocks.length, `${file} shows no commands`).toBeGreaterThan(0);
      for (const { commands, expects } of blocks) {
        for (const cmd of commands) {
          const out = await run('bash', ['-c', local(cmd)], { env }).catch((e) => e);
          expect(out.code ?? 0, `${cmd}\n${out.stderr ?? ''}${out.stdout ?? ''}`).toBe(0);
        }
        for (const e of expects) await check(e);
      }
    },
    60_000,
  );

  it("hearth mcp-config home-assistant (as the HA docs show) prints the hub's SSE URL with the token", async () => {
    const { stdout } = await run('bash', ['-c', local('hearth mcp-config home-assistant')], { env });
    expect(stdout).toContain(`${hub.http}/sse?token=${TOKEN}`);
  });
});

describe("the root README's quick start, as a new user types it (no token)", () => {
  it('health, remember, recall, a Zigbee2MQTT reading over MQTT, query_stream', async () => {
    const readme = readFileSync('README.md', 'utf8');
    const block = [...readme.matchAll(/^```\n([\s\S]*?)^```/gm)]
      .map((m) => m[1])
      .find((b) => b.includes('curl -s localhost:8900/health'));
    expect(block, 'README quick-start block').toBeDefined();
    const commands = block!
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const open = await startServe(join(dir, 'readme-data'));
    try {
      const port = new URL(open.http).port;
      const outputs: string[] = [];
      for (const cmd of commands) {
        const mine = cmd
          .replaceAll('localhost:8900', `127.0.0.1:${port}`)
          .replace(/^mosquitto_pub /, `mosquitto_pub -p ${new URL(open.mqtt).port} -q 1 `);
        const { stdout } = await run('bash', ['-c', mine], { env: { PATH: process.env.PATH ?? '' } });
        outputs.push(stdout);
      }
      const json = outputs.filter((o) => o.trim()).map((o) => JSON.parse(o));
      expect(json.map((j) => j.ok)).toEqual([true, true, true, true]);
      expect(JSON.stringify(json.find((j) => j.results))).toContain('Brian keeps the bedroom at 68°F at night');
      expect(json.at(-1).points.map((p: { value: number }) => p.value)).toEqual([21.5]);
    } finally {
      open.child.kill('SIGTERM');
      await new Promise((r) => open.child.once('exit', r));
    }
  }, 60_000);
});
