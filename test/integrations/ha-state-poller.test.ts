import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { pollOnce, toReadings, type PollerOptions } from '../../integrations/ha-state-poller/poller.js';
import { shellWord } from '../helpers/shell.js';

const run = promisify(execFile);
const BIN = resolve('dist/integrations/ha-state-poller/bin.js');
const HA_TOKEN = 'ha-long-lived-token';
const TOKEN = 'hearth-token';
const auth = { authorization: `Bearer ${TOKEN}` };
let hub: TestHub;
let hearthUrl: string;
let ha: Server;
let haUrl: string;
let haRequests = 0;

/** A fake Home Assistant: GET /api/states with a bearer token, like HA's REST API. */
const states = [
  {
    entity_id: 'sensor.living_room_temperature',
    state: '21.5',
    attributes: { unit_of_measurement: '°C', friendly_name: 'Living room' },
    last_updated: '2026-12-01T08:00:00+00:00',
  },
  {
    entity_id: 'binary_sensor.front_door',
    state: 'off',
    attributes: { device_class: 'door' },
    last_updated: '2026-12-01T07:59:00+00:00',
  },
  { entity_id: 'sensor.broken', state: 'unavailable', attributes: {}, last_updated: '2026-12-01T08:00:00+00:00' },
  { entity_id: 'light.kitchen', state: 'on', attributes: {}, last_updated: '2026-12-01T08:00:00+00:00' },
];

beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  hub.clock.set(Date.parse('2026-12-01T08:05:00Z') / 1000);
  hearthUrl = (await hub.start()).http!;
  ha = createServer((req, res) => {
    haRequests++;
    if (req.headers.authorization !== `Bearer ${HA_TOKEN}`)
      return void res.writeHead(401).end('{"message":"Invalid authentication"}');
    if (req.method !== 'GET' || req.url !== '/api/states') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(states));
  });
  await new Promise<void>((r) => ha.listen(0, '127.0.0.1', r));
  haUrl = `http://127.0.0.1:${(ha.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => ha?.close(r));
  await hub?.close();
});

const env = () => ({
  PATH: process.env.PATH ?? '',
  HA_URL: haUrl,
  HA_TOKEN,
  HEARTH_URL: hearthUrl,
  HEARTH_TOKEN: TOKEN,
});
const points = (entity_name: string) =>
  post(hub, '/query_stream', { entity_name, metric: 'state' }, auth).then((r) => r.body.points);

describe('integrations/ha-state-poller', () => {
  it('hearth-ha-poller --once forwards the chosen entities as readings (unit, HA time, type sensor)', async () => {
    const { stdout } = await run(process.execPath, [BIN, '--once', '--entities', 'sensor.*,binary_sensor.*'], {
      env: env(),
    });
    expect(stdout.trim()).toBe('sent 2 readings');
    expect(await points('sensor.living_room_temperature')).toEqual([
      { ts: Date.parse('2026-12-01T08:00:00Z') / 1000, value: 21.5, unit: '°C', source: 'ha_poller' },
    ]);
    expect((await points('binary_sensor.front_door'))[0]).toMatchObject({ value: 'off' });
    expect(await points('sensor.broken')).toBeUndefined();
    expect(
      hub.db.prepare("SELECT type FROM entities WHERE name = 'sensor.living_room_temperature'").pluck().get(),
    ).toBe('sensor');
    // An answer comes back from what was polled.
    const profile = await hub.app.inject({
      method: 'GET',
      url: '/profile/sensor.living_room_temperature',
      headers: auth,
    });
    expect(profile.json().readings[0]).toMatchObject({ metric: 'state', value: 21.5 });
  });

  it("the README's command, pointed at the fake HA with --once, runs as shown", async () => {
    const readme = readFileSync('integrations/ha-state-poller/README.md', 'utf8');
    const block = /```\n([\s\S]*?hearth-ha-poller[\s\S]*?)```/.exec(readme)![1];
    const cmd = block
      .replace(/\\\n\s*/g, ' ')
      .trim()
      .replace('http://homeassistant.local:8123', haUrl)
      .replace('<ha token>', HA_TOKEN)
      .replace('http://127.0.0.1:8900', hearthUrl)
      .replace('<hearth token>', TOKEN)
      .replace('hearth-ha-poller', `${shellWord(process.execPath)} ${shellWord(BIN)} --once`);
    const { stdout } = await run('bash', ['-c', cmd], { env: { PATH: process.env.PATH ?? '' } });
    expect(stdout).toMatch(/^sent \d+ readings$/m);
  });

  it('sends only what changed between polls', async () => {
    const o: PollerOptions = {
      haUrl,
      haToken: HA_TOKEN,
      hearthUrl,
      hearthToken: TOKEN,
      entities: ['light.*'],
      intervalSeconds: 30,
    };
    const seen = new Map<string, string>();
    expect(await pollOnce(o, seen)).toEqual({ sent: 1 });
    expect(await pollOnce(o, seen)).toEqual({ sent: 0 });
    states[3] = { ...states[3], state: 'off', last_updated: '2026-12-01T08:01:00+00:00' };
    expect(await pollOnce(o, seen)).toEqual({ sent: 1 });
    expect((await points('light.kitchen')).map((p: { value: string }) => p.value)).toEqual(['on', 'off']);
  });

  it('a chosen person entity\'s friendly name makes person.anna and the assistant\'s "Anna" one entity', async () => {
    await post(hub, '/remember', { entity_name: 'Anna', fact: 'Anna plays the cello', entity_type: 'person' }, auth);
    states.push({
      entity_id: 'person.anna',
      state: 'home',
      attributes: { friendly_name: 'Anna' } as never,
      last_updated: '2026-12-01T08:02:00+00:00',
    });
    try {
      const o: PollerOptions = {
        haUrl,
        haToken: HA_TOKEN,
        hearthUrl,
        hearthToken: TOKEN,
        entities: ['person.*'],
        intervalSeconds: 30,
      };
      expect(await pollOnce(o, new Map())).toEqual({ sent: 1 });
      const aliases = await hub.app.inject({ method: 'GET', url: '/aliases/person.anna', headers: auth });
      expect(aliases.json()).toMatchObject({
        entity_name: 'Anna',
        aliases: [{ alias: 'person.anna', source: 'homeassistant' }],
      });
      // the person's state reading landed on Anna too
      expect(await points('Anna')).toMatchObject([{ value: 'home', source: 'ha_poller' }]);
    } finally {
      states.pop();
    }
  });

  it('one-line errors a person can act on: bad HA token, HA down, Hearth token missing, no settings', async () => {
    const bad = await run(process.execPath, [BIN, '--once'], { env: { ...env(), HA_TOKEN: 'wrong' } }).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^hearth-ha-poller: Home Assistant refused the token \(401\); create a long-lived access token/,
    );
    const down = await run(process.execPath, [BIN, '--once'], {
      env: { ...env(), HA_URL: 'http://127.0.0.1:9' },
    }).catch((e) => e);
    expect(down.stderr).toMatch(/did not answer .*check HA_URL/);
    const o: PollerOptions = {
      haUrl,
      haToken: HA_TOKEN,
      hearthUrl,
      entities: ['binary_sensor.*'],
      intervalSeconds: 30,
    };
    await expect(pollOnce(o, new Map())).rejects.toThrow(/Hearth answered 401: .*; set HEARTH_TOKEN/);
    const none = await run(process.execPath, [BIN], { env: { PATH: env().PATH } }).catch((e) => e);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/set HA_URL and HA_TOKEN/);
  });

  it('toReadings: globs, numbers vs words, no value skipped', () => {
    const r = toReadings(states, ['*_temperature', 'light.*'], new Map());
    expect(r.map((x) => [x.entity_name, x.value, x.entity_type])).toEqual([
      ['sensor.living_room_temperature', 21.5, 'sensor'],
      ['light.kitchen', 'off', 'device'],
    ]);
  });
});
