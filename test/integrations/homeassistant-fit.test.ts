/**
 * Home Assistant wiring that fits a real home: the TTS entity hearth_ask speaks with is a variable
 * with a documented default (not the paid Nabu Casa voice), the package states the oldest HA it
 * runs on and uses no key newer than that, and InfluxDB 1.x `?u=&p=` credentials work on /write.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactToken } from '../../src/http/text-json.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';
import { haYaml, render } from '../helpers/ha-templates.js';

const DIR = 'integrations/homeassistant';
const TOKEN = 'ha-fit-token';
const pkg = haYaml(join(DIR, 'packages/hearth.yaml'), { hearth_authorization: `Bearer ${TOKEN}` });

describe('script.hearth_ask: the TTS entity', () => {
  const ask = pkg.script.hearth_ask;
  /** What HA does: script variables rendered from the call's fields, then the step's target from them. */
  const target = (fields: Record<string, unknown>) => {
    const vars = {
      ...fields,
      ...Object.fromEntries(
        Object.entries(ask.variables as Record<string, string>).map(([k, v]) => [k, render(v, fields)]),
      ),
    };
    const speak = ask.sequence.find((s: { action: string }) => s.action === 'tts.speak');
    return render(speak.target.entity_id, vars);
  };

  it('defaults to the free tts.google_translate_en_com, takes tts_entity per call, and the default is documented', () => {
    expect(target({ question: 'q', speaker: 'media_player.kitchen' })).toBe('tts.google_translate_en_com');
    expect(target({ tts_entity: '' })).toBe('tts.google_translate_en_com');
    expect(target({ tts_entity: 'tts.piper' })).toBe('tts.piper');
    expect(ask.fields.tts_entity.description).toContain('default tts.google_translate_en_com');
    const text = readFileSync(join(DIR, 'packages/hearth.yaml'), 'utf8');
    expect(text).toMatch(/tts\.home_assistant_cloud needs a Nabu Casa subscription/);
    expect(readFileSync('docs/home-assistant.md', 'utf8')).toContain('tts_entity');
  });
});

/**
 * Every key the YAML uses in an automation, script or integration block, with the HA release that
 * introduced it in this form. A key not listed fails the test: add it with its release.
 */
const SINCE: Record<string, string> = {
  // automations: triggers/conditions/actions and `- trigger:` replaced trigger/condition/action/platform in 2024.10
  triggers: '2024.10',
  conditions: '2024.10',
  actions: '2024.10',
  trigger: '2024.10',
  // script and automation steps: `action:` replaced `service:` in 2024.8; response_variable came in 2023.7
  action: '2024.8',
  response_variable: '2023.7',
  data: '0.7',
  target: '2021.3',
  entity_id: '0.7',
  condition: '0.7',
  value_template: '0.7',
  topic: '0.7',
  id: '0.7',
  alias: '0.7',
  mode: '2020.11',
  fields: '0.7',
  description: '0.7',
  example: '0.7',
  sequence: '0.7',
  variables: '2021.4',
  default: '0.7',
  // rest_command
  url: '0.7',
  method: '0.7',
  content_type: '0.7',
  headers: '0.7',
  payload: '0.7',
  timeout: '0.7',
  verify_ssl: '0.7',
  // influxdb / mqtt_statestream
  host: '0.7',
  port: '0.7',
  database: '0.7',
  username: '0.7',
  password: '0.7',
  ssl: '0.7',
  max_retries: '0.7',
  include: '0.7',
  exclude: '0.7',
  domains: '0.7',
  entities: '0.7',
  entity_globs: '0.7',
  base_topic: '0.7',
  publish_attributes: '0.7',
  publish_timestamps: '0.7',
  influxdb: '0.7',
  mqtt_statestream: '0.7',
  rest_command: '0.7',
  script: '0.7',
  automation: '0.7',
};
const MIN = '2024.10';
const newer = (a: string, b: string) => {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  return x[0] !== y[0] ? x[0] > y[0] : x[1] > y[1];
};
/** Keys at structural positions: not the names of rest_commands, scripts, fields or variables, nor action data. */
function keys(node: unknown, parent = '', out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const n of node) keys(n, parent, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      const named = ['rest_command', 'script', 'fields', 'variables'].includes(parent);
      if (!named) out.add(k);
      if (['data', 'headers'].includes(k)) continue;
      keys(v, named ? `${parent}:item` : k, out);
    }
  }
  return out;
}

describe('the minimum Home Assistant version', () => {
  it(`is stated (${MIN}) and no key the YAML uses is newer`, () => {
    expect(readFileSync(join(DIR, 'packages/hearth.yaml'), 'utf8')).toContain(`Needs Home Assistant ${MIN} or later`);
    expect(readFileSync('docs/home-assistant.md', 'utf8')).toContain(`Home Assistant ${MIN} or later`);
    for (const file of ['packages/hearth.yaml', 'influxdb.yaml', 'statestream.yaml']) {
      const used = [...keys(haYaml(join(DIR, file), {}))];
      expect(
        used.filter((k) => !(k in SINCE)),
        `${file}: keys with no recorded release`,
      ).toEqual([]);
      expect(
        used.filter((k) => newer(SINCE[k], MIN)),
        `${file}: keys newer than ${MIN}`,
      ).toEqual([]);
    }
    // And it does need 2024.10: the automations use the new keys, none of the old ones.
    const autos = pkg.automation as Record<string, unknown>[];
    expect(autos.every((a) => 'triggers' in a && 'actions' in a && !('trigger' in a) && !('action' in a))).toBe(true);
    expect(JSON.stringify(pkg)).not.toMatch(/"(platform|service)":/);
  });
});

describe('/write: InfluxDB 1.x credentials in the query string', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  });
  afterAll(async () => {
    await hub?.close();
  });
  const write = (query: string) =>
    hub.app.inject({
      method: 'POST',
      url: `/write?db=home_assistant&precision=s&${query}`,
      payload: `°C,domain=sensor,entity_id=attic_temperature value=9.5 ${Math.floor(hub.clock.now())}`,
    });

  it('?u=<anyone>&p=<token> writes (204); a wrong p is 401; p is not a token anywhere else', async () => {
    expect((await write(`u=homeassistant&p=${TOKEN}`)).statusCode).toBe(204);
    expect((await write(`p=${TOKEN}`)).statusCode).toBe(204);
    const wrong = await write('u=homeassistant&p=guess');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ ok: false, error: 'unauthorized' });
    const elsewhere = await hub.app.inject({
      method: 'POST',
      url: `/record?p=${TOKEN}`,
      payload: { entity_name: 'x', metric: 'm', value: 1 },
    });
    expect(elsewhere.statusCode).toBe(401);
  });

  it('the request log redacts p as it does token', () => {
    const logger = redactToken(true) as { serializers: { req: (r: unknown) => { url: string } } };
    const req = (url: string) => logger.serializers.req({ method: 'POST', url, host: 'h', ip: '127.0.0.1' });
    expect(req(`/write?db=x&u=ha&p=${TOKEN}&precision=s`).url).toBe('/write?db=x&u=ha&p=[redacted]&precision=s');
  });
});
