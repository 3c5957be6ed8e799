/** The entity page's type: the stored one, or — when nothing set it — the graph's guess, marked as a guess. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';
import { login, TOKEN } from './helpers.js';

let hub: TestHub;
let cookie: string;
beforeAll(async () => {
  hub = await buildTestHub({ config: { http: { token: TOKEN } } });
  await hub.services.timeseries.record({ entity_name: 'garden_probe', metric: 'temperature', value: 12 } as never);
  await hub.services.memory.remember(
    {
      entity_name: 'Brian',
      fact: 'Brian likes tea',
      category: 'preference',
      confidence: 1,
      source: 'manual',
      entity_type: 'person',
    } as never,
    'http',
  );
  cookie = (await login(hub)).cookie;
});
afterAll(async () => hub?.close());

const tag = async (name: string) => {
  const res = await hub.app.inject({ url: `/admin/entity/${name}`, headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return /<span class="tag"( title="[^"]*")?>([^<]*)<\/span>/.exec(res.body);
};

it('an entity made by readings shows the inferred type as a guess, with why', async () => {
  const t = await tag('garden_probe');
  expect(t?.[2]).toBe('sensor?');
  expect(t?.[1]).toContain('a guess from the data');
  // The store still says unknown: showing a guess writes nothing.
  expect(hub.services.entities.find('garden_probe')?.type).toBe('unknown');
});

it('a stored type is shown as it is, without a tooltip', async () => {
  const t = await tag('Brian');
  expect(t?.[2]).toBe('person');
  expect(t?.[1]).toBeUndefined();
});
