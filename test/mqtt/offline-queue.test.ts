/**
 * Queues of persistent sessions whose client is away are capped (src/mqtt/offline-queue.ts): real
 * aedes on port 0, real mqtt.js clients with clean: false.
 */
import { afterEach, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { startBroker, type EmbeddedBroker } from '../../src/mqtt/broker.js';

let broker: EmbeddedBroker | undefined;
let logs: string[] = [];
afterEach(async () => {
  await broker?.close();
  broker = undefined;
  logs = [];
});

async function start(offlineQueue: { perClient?: number; totalBytes?: number }) {
  broker = await startBroker({
    host: '127.0.0.1',
    port: 0,
    accounts: [],
    offlineQueue,
    onPublish: async () => true,
    log: (m) => logs.push(m),
  });
  return `mqtt://127.0.0.1:${broker.address.port}`;
}
const connect = (url: string, o: mqtt.IClientOptions = {}) => mqtt.connectAsync(url, { reconnectPeriod: 0, ...o });

/** Subscribes a persistent session to `filter` and leaves. */
async function goAway(url: string, clientId: string, filter = 'away/#') {
  const c = await connect(url, { clientId, clean: false });
  await c.subscribeAsync(filter, { qos: 1 });
  await c.endAsync();
}

/** Reconnects a session and collects what it is sent until nothing more comes for 300 ms. */
async function comeBack(url: string, clientId: string, clean = false): Promise<string[]> {
  const got: string[] = [];
  const c = mqtt.connect(url, { clientId, clean, reconnectPeriod: 0 });
  c.on('message', (_t, p) => got.push(p.toString()));
  await new Promise((resolve, reject) => (c.once('connect', resolve), c.once('error', reject)));
  let seen = -1;
  while (seen !== got.length) {
    seen = got.length;
    await new Promise((r) => setTimeout(r, 300));
  }
  await c.endAsync();
  return got;
}

async function publish(url: string, n: number, from = 0, topic = 'away/t') {
  const p = await connect(url);
  for (let i = from; i < from + n; i++) await p.publishAsync(topic, `m${i}`, { qos: 1 });
  await p.endAsync();
}

describe('queues of persistent sessions that are away', () => {
  it('keep at most perClient messages (the oldest), deliver them on return, and count back to zero', async () => {
    const url = await start({ perClient: 20 });
    await goAway(url, 'dash');
    await publish(url, 50);
    expect(broker!.queued('dash').messages).toBe(20);
    expect(logs.filter((l) => l.includes('client dash is away'))).toHaveLength(1); // once a minute, not 30 times
    expect(logs[0]).toMatch(/its queue holds 20 messages .*offline_queue_max_messages/);

    const got = await comeBack(url, 'dash');
    expect(got).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
    expect(broker!.queued('dash')).toEqual({ messages: 0, bytes: 0 });

    // Nothing drifted: away again, five more arrive and all five are kept.
    await new Promise((r) => setTimeout(r, 100));
    await publish(url, 5, 100);
    expect(broker!.queued()).toMatchObject({ messages: 5 });
    expect(await comeBack(url, 'dash')).toEqual(['m100', 'm101', 'm102', 'm103', 'm104']);
    expect(broker!.queued()).toEqual({ messages: 0, bytes: 0 });
  });

  it('never drop what goes to a connected client, however many', async () => {
    const url = await start({ perClient: 5 });
    const sub = await connect(url, { clientId: 'live', clean: false });
    const got: string[] = [];
    sub.on('message', (_t, p) => got.push(p.toString()));
    await sub.subscribeAsync('away/#', { qos: 1 });
    await publish(url, 40);
    for (let i = 0; i < 50 && got.length < 40; i++) await new Promise((r) => setTimeout(r, 20));
    expect(got).toHaveLength(40);
    await sub.endAsync();
    expect(logs.filter((l) => l.includes('is away'))).toEqual([]);
    expect(broker!.queued()).toEqual({ messages: 0, bytes: 0 });
  });

  it('keep at most totalBytes across all sessions, topic and payload counted', async () => {
    // 'away/t' + 'mNN' = 9 bytes a message: 100 bytes hold 11.
    const url = await start({ perClient: 1000, totalBytes: 100 });
    await goAway(url, 'one');
    await goAway(url, 'two');
    await publish(url, 10, 10);
    expect(broker!.queued()).toEqual({ messages: 11, bytes: 99 });
    expect(broker!.queued('one').messages).toBe(6);
    expect(broker!.queued('two').messages).toBe(5);
    expect(logs.some((l) => /all queues hold 100 bytes/.test(l))).toBe(true);
    expect(await comeBack(url, 'one')).toEqual(['m10', 'm11', 'm12', 'm13', 'm14', 'm15']);
    expect(broker!.queued()).toEqual({ messages: 5, bytes: 45 });
  });

  it('are emptied, and counted so, when the client returns with a clean session', async () => {
    const url = await start({ perClient: 100 });
    await goAway(url, 'fresh');
    await publish(url, 7);
    expect(broker!.queued('fresh').messages).toBe(7);
    expect(await comeBack(url, 'fresh', true)).toEqual([]);
    expect(broker!.queued()).toEqual({ messages: 0, bytes: 0 });
  });
});
