import { afterAll, describe, expect, it } from 'vitest';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';
import { mosquittoPub, startMosquitto, type Mosquitto } from '../helpers/mosquitto.js';

/**
 * The stand-ins `npm test` uses where Debian's Mosquitto is absent (test/helpers/mqtt5-broker.mjs and
 * mqtt-pub.mjs), run here always, so CI — which has the real ones — still proves the fallback works:
 * Hearth's MQTT 5 external client, QoS 1 both ways, retained messages replayed on subscribe.
 */
let broker: Mosquitto | undefined;
let hub: TestHub | undefined;
afterAll(async () => {
  await hub?.close();
  await broker?.stop();
});

describe('stand-in broker and client', () => {
  it('carry a retained and a live QoS 1 reading to Hearth over MQTT 5', async () => {
    broker = await startMosquitto(undefined, { standIn: true });
    expect(broker.kind).toBe('node-mqtt5-broker');
    const pub = (topic: string, message: string, extra: string[] = []) =>
      mosquittoPub(['-h', '127.0.0.1', '-p', String(broker!.port), '-q', '1', '-t', topic, '-m', message, ...extra], {
        standIn: true,
      });
    await pub('zigbee2mqtt/attic_sensor', '{"temperature":12.5}', ['-r']);
    hub = await buildTestHub({ config: { mqtt: { mode: 'external', url: broker.url } } });
    hub.clock.set(Date.now() / 1000);
    await hub.start();
    expect(hub.mqtt!.connected()).toBe(true);
    await pub('zigbee2mqtt/attic_sensor', '{"temperature":13}');
    const values = async () =>
      (
        (await post(hub!, '/query_stream', { entity_name: 'attic_sensor', metric: 'temperature' })).body.points ?? []
      ).map((p: { value: number }) => p.value);
    for (let i = 0; i < 100 && (await values()).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await values()).toEqual([12.5, 13]);
    // A refused connection exits non-zero, as mosquitto_pub does.
    const bad = await mosquittoPub(['-h', '127.0.0.1', '-p', '1', '-t', 'x', '-m', 'y'], { standIn: true }).catch(
      (e) => e,
    );
    expect(bad.code).toBe(1);
  });
});
