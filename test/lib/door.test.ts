import { describe, expect, it } from 'vitest';
import { type Door, doorsHealth, startDoors, stopDoors } from '../../src/lib/door.js';

const events: string[] = [];
const door = (name: string, more: Partial<Door> = {}): Door => ({
  name,
  start: async () => (events.push(`start ${name}`), `${name}://here`),
  stop: async () => void events.push(`stop ${name}`),
  ...more,
});

describe('doors', () => {
  it('start in order with their addresses, stop in reverse; a failing close is logged by name, the rest close', async () => {
    events.length = 0;
    const doors = [door('http'), door('mqtt', { stop: async () => Promise.reject(new Error('boom')) }), door('cron')];
    expect(await startDoors(doors)).toEqual({ http: 'http://here', mqtt: 'mqtt://here', cron: 'cron://here' });
    const logged: string[] = [];
    await stopDoors(doors, (m) => logged.push(m));
    expect(events).toEqual(['start http', 'start mqtt', 'start cron', 'stop cron', 'stop http']);
    expect(logged).toEqual(['mqtt: close failed: boom']);
  });

  it('a door that fails to start closes those already started and fails the start', async () => {
    events.length = 0;
    const bad = door('mqtt', { start: async () => Promise.reject(new Error('port taken')) });
    await expect(startDoors([door('http'), bad, door('cron')])).rejects.toThrow('port taken');
    expect(events).toEqual(['start http', 'stop http']);
  });

  it('/health merges the doors: degraded when any door says so', () => {
    const ok = door('http', { health: () => ({ http: { up: true } }) });
    const down = door('mqtt', { health: () => ({ status: 'degraded', mqtt: { error: 'x' } }) });
    expect(doorsHealth([ok, door('cron')])).toEqual({ http: { up: true } });
    expect(doorsHealth([down, ok])).toEqual({ status: 'degraded', http: { up: true }, mqtt: { error: 'x' } });
  });
});
