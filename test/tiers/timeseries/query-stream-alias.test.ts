/** query_stream asked by another name (an alias) answers with the entity's own name, as every other tier does. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { QueryStreamInput } from '../../../src/tiers/timeseries/timeseries.schemas.js';
import { buildTestHub, type TestHub } from '../../helpers/hub.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await buildTestHub();
  await hub.services.timeseries.record({
    entity_name: 'sensor.kitchen_temp',
    metric: 'temperature',
    value: 21,
  } as never);
  hub.services.aliases.add({ entity_name: 'sensor.kitchen_temp', alias: 'Kitchen thermometer' }, 'http');
});
afterAll(async () => hub?.close());

it.each(['raw', 'hour'] as const)('%s: the entity name, not the alias asked with', (granularity) => {
  const out = hub.services.timeseries.queryStream(
    QueryStreamInput.parse({ entity_name: 'kitchen THERMOMETER', metric: 'temperature', granularity }),
  );
  expect(out.entity_name).toBe('sensor.kitchen_temp');
  expect(out.result).toContain('for sensor.kitchen_temp');
});
