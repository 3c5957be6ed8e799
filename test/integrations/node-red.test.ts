import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { buildTestHub, post, tempDir, type TestHub } from '../helpers/hub.js';
import { freePort } from '../helpers/ports.js';

// A real Node-RED (the npm package, headless, one start for the whole file) runs
// integrations/node-red/flows.json against a real hub and its embedded broker.
const FLOWS = 'integrations/node-red/flows.json';
const TOKEN = 'node-red-token';
const auth = { authorization: `Bearer ${TOKEN}` };
let hub: TestHub;
let red: ChildProcess;
let redUrl: string;
let redLog = '';
let userDir: string;
let client: MqttClient;

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN }, mqtt: { mode: 'embedded', port: 0 } } });
  hub.clock.set(Date.now() / 1000);
  const addr = await hub.start();
  client = mqtt.connect(addr.mqtt!, { reconnectPeriod: 0 });
  await new Promise((r) => client.once('connect', r));

  userDir = tempDir('hearth-node-red-');
  copyFileSync(FLOWS, join(userDir, 'flows.json'));
  writeFileSync(
    join(userDir, 'settings.js'),
    `module.exports = { flowFile: 'flows.json', credentialSecret: false, disableEditor: true, httpAdminRoot: '/',
      logging: { console: { level: 'info' } }, contextStorage: { default: { module: 'memory' } }, externalModules: { autoInstall: false } };\n`,
  );
  const port = await freePort();
  redUrl = `http://127.0.0.1:${port}`;
  const mqttUrl = new URL(addr.mqtt!);
  red = spawn(
    process.execPath,
    [
      resolve('node_modules/node-red/red.js'),
      '--userDir',
      userDir,
      '--settings',
      join(userDir, 'settings.js'),
      '--port',
      String(port),
    ],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: userDir,
        HEARTH_URL: addr.http!,
        HEARTH_TOKEN: TOKEN,
        HEARTH_MQTT_HOST: mqttUrl.hostname,
        HEARTH_MQTT_PORT: mqttUrl.port,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  red.stdout!.on('data', (d) => (redLog += d));
  red.stderr!.on('data', (d) => (redLog += d));
  // Ready when the flows have started and their MQTT nodes carry a probe reading into the hub.
  const probe = async () =>
    (await post(hub, '/query_stream', { entity_name: 'nodered', metric: 'ready' }, auth)).body.points?.length > 0;
  for (let i = 0; ; i++) {
    if (red.exitCode !== null) throw new Error(`node-red exited: ${redLog}`);
    // Asking the admin API before the runtime has loaded the flows makes Node-RED log an error: wait for it.
    if (redLog.includes('Started flows')) {
      await client.publishAsync('home/nodered/ready', '1', { qos: 1 });
      await new Promise((r) => setTimeout(r, 200));
      if (await probe()) break;
    }
    if (i > 300) throw new Error(`node-red did not come up: ${redLog}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}, 90_000);
afterAll(async () => {
  client?.end(true);
  if (red && red.exitCode === null) {
    red.kill('SIGTERM');
    await new Promise((r) => red.once('exit', r));
  }
  await hub?.close();
  if (userDir) rmSync(userDir, { recursive: true, force: true });
});

/** Publishes to the hub's broker and resolves with the next message on `reply`. */
async function ask(topic: string, payload: string, reply: string): Promise<string> {
  const answer = new Promise<string>((res) => {
    const on = (t: string, p: Buffer) => {
      if (t !== reply) return;
      client.off('message', on);
      res(p.toString());
    };
    client.on('message', on);
  });
  await client.subscribeAsync(reply, { qos: 1 });
  await client.publishAsync(topic, payload, { qos: 1 });
  return answer;
}

describe('integrations/node-red/flows.json in a real Node-RED', () => {
  it('imports: every node type is one Node-RED ships, and the flow is running', async () => {
    const nodes = JSON.parse(readFileSync(FLOWS, 'utf8')) as { type: string }[];
    const running = (await (await fetch(`${redUrl}/flows`)).json()) as { type: string }[];
    expect(running.map((n) => n.type).sort()).toEqual(nodes.map((n) => n.type).sort());
    expect(redLog).not.toMatch(/Waiting for missing types|\[error\]/);
  });

  it('MQTT in → Hearth: home/<room>/<metric> becomes a reading', async () => {
    await client.publishAsync('home/kitchen/temperature', '21.5', { qos: 1 });
    await expect
      .poll(
        async () =>
          (await post(hub, '/query_stream', { entity_name: 'kitchen', metric: 'temperature' }, auth)).body.points?.[0]
            ?.value,
        { timeout: 10_000 },
      )
      .toBe(21.5);
  });

  /** What POST /ask says to the same question: the flow passes on exactly its `result`. */
  const direct = async (body: Record<string, unknown>) => (await post(hub, '/ask', body, auth)).body;

  it('the remember inject node reaches Hearth (JSON sent as text), and a question gets the spoken result of /ask back', async () => {
    const nodes = JSON.parse(readFileSync(FLOWS, 'utf8')) as { id: string; type: string; name?: string }[];
    const inject = nodes.find((n) => n.type === 'inject' && n.name === 'remember')!;
    expect((await fetch(`${redUrl}/inject/${inject.id}`, { method: 'POST' })).status).toBe(200);
    await expect
      .poll(() => hub.db.prepare("SELECT fact FROM memories WHERE status = 'active'").pluck().all(), {
        timeout: 10_000,
      })
      .toEqual(['Brian keeps the bedroom at 68°F at night']);
    const question = 'what temperature does Brian keep the bedroom at night?';
    const answer = await ask('nodered/hearth/ask', question, 'nodered/hearth/answer');
    const expected = await direct({ question });
    expect(expected.answer.kind).toBe('fact');
    expect(answer).toBe(expected.result);
    expect(answer).toContain('68°F');
    expect(answer).not.toContain(question);
  });

  it('who asks rides along as JSON {question, speaker}, and a guess is never said as a fact', async () => {
    const asked = { question: 'what temperature do I keep the bedroom at night?', speaker: 'Brian' };
    const answer = await ask('nodered/hearth/ask', JSON.stringify(asked), 'nodered/hearth/answer');
    expect(answer).toBe((await direct(asked)).result);
    expect(answer).toContain('68°F'); // "I" is Brian
    await post(
      hub,
      '/remember',
      { entity_name: 'Sam', fact: 'Sam the plumber services the gas heater every October' },
      auth,
    );
    const guess = await ask('nodered/hearth/ask', 'who looks after our boiler?', 'nodered/hearth/answer');
    const said = await direct({ question: 'who looks after our boiler?' });
    expect(guess).toBe(said.result);
    expect(guess).toMatch(/^(I'm not sure|I don't know)/); // hedged or not known: never stated
  });

  it('"where are my keys" goes through the same /ask and comes back in words, never repeating the question', async () => {
    await post(hub, '/locate', { entity_name: 'car keys', container_name: 'hallway bowl' }, auth);
    const answer = await ask('nodered/hearth/where', 'where are my car keys?', 'nodered/hearth/answer');
    expect(answer).toBe((await direct({ question: 'where are my car keys?' })).result);
    expect(answer).toMatch(/hallway bowl/);
    expect(answer).not.toMatch(/where are my/i);
  });

  it('the events subscription turns a triggered intention into something to say', async () => {
    await post(
      hub,
      '/intend',
      { entity_name: 'Anna', trigger_text: 'when Anna gets home', action_text: 'remind Anna to water the tomatoes' },
      auth,
    );
    const said = new Promise<string>((res) =>
      client.on('message', (t, p) => t === 'nodered/hearth/say' && res(p.toString())),
    );
    await client.subscribeAsync('nodered/hearth/say', { qos: 1 });
    expect((await post(hub, '/check_intentions', { text: 'Anna just got home' }, auth)).body.triggered).toHaveLength(1);
    expect(await said).toBe('remind Anna to water the tomatoes');
  });
});
