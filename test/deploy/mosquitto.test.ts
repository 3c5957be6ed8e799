/**
 * deploy/compose.yaml + deploy/mosquitto.conf: the shipped broker configuration, run by Debian's
 * Mosquitto (what the eclipse-mosquitto image runs), keeps Hearth's QoS 1 readings while Hearth is
 * down and refuses anonymous clients. Without Mosquitto the file is checked statically (one line says so).
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { buildTestHub, post, tempDir } from '../helpers/hub.js';
import { startMosquitto } from '../helpers/mosquitto.js';
import { freePort } from '../helpers/ports.js';

const run = promisify(execFile);
const conf = readFileSync('deploy/mosquitto.conf', 'utf8');
const compose = readFileSync('deploy/compose.yaml', 'utf8');
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

describe('deploy/mosquitto.conf and compose.yaml', () => {
  it('compose runs eclipse-mosquitto with this conf, on loopback, with a data volume', () => {
    expect(compose).toMatch(/image: eclipse-mosquitto:2\n/);
    expect(compose).toContain('- ./mosquitto.conf:/mosquitto/config/mosquitto.conf:ro');
    expect(compose).toContain('- "127.0.0.1:1883:1883"');
    expect(compose).toContain('- mosquitto-data:/mosquitto/data');
    expect(conf).toMatch(/^persistence_location \/mosquitto\/data\/$/m);
    expect(conf).toMatch(/^password_file \/mosquitto\/config\/passwd$/m);
  });

  it('keeps QoS 1 readings for Hearth while it is down and refuses anonymous clients', async () => {
    if (!has('mosquitto') || !has('mosquitto_passwd')) {
      process.stdout.write(
        'mosquitto not on PATH (apt-get install mosquitto): deploy/mosquitto.conf checked statically only\n',
      );
      expect(conf).toMatch(/^allow_anonymous false$/m);
      expect(conf).toMatch(/^persistence true$/m);
      expect(conf).toMatch(/^listener 1883$/m);
      // The stand-in broker still proves the rest of the external path (test/mqtt/external.test.ts).
      expect(await startMosquitto().then(async (b) => (await b.stop(), b.kind))).toBe('node-mqtt5-broker');
      return;
    }
    const dir = tempDir('hearth-mosq-');
    const port = await freePort();
    await run('mosquitto_passwd', ['-b', '-c', join(dir, 'passwd'), 'hearth', 'hearth-secret']);
    await run('mosquitto_passwd', ['-b', join(dir, 'passwd'), 'sensor', 'sensor-secret']);
    const local = conf
      .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
      .replace(/^password_file .*$/m, `password_file ${join(dir, 'passwd')}`)
      .replace(/^persistence_location .*$/m, `persistence_location ${dir}/`)
      // As root Mosquitto would switch to its own user, who cannot read this private temp dir.
      .concat(`user ${userInfo().username}\n`);
    writeFileSync(join(dir, 'mosquitto.conf'), local);
    const broker = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    const url = `mqtt://127.0.0.1:${port}`;
    try {
      let sensor: mqtt.MqttClient | undefined;
      for (let i = 0; i < 100 && !sensor; i++) {
        sensor = await mqtt
          .connectAsync(url, { username: 'sensor', password: 'sensor-secret', reconnectPeriod: 0 })
          .catch(() => undefined);
        if (!sensor) await new Promise((r) => setTimeout(r, 50));
      }
      expect(sensor).toBeDefined();
      const anonymous = await mqtt.connectAsync(url, { reconnectPeriod: 0 }).then(
        (c) => (c.end(), 'connected'),
        (e: Error) => e.message,
      );
      expect(anonymous).toMatch(/Not authorized|Bad username/i);

      const dataDir = tempDir();
      const open = async () => {
        const hub = await buildTestHub({
          dir: dataDir,
          config: { mqtt: { mode: 'external', url, username: 'hearth', password: 'hearth-secret' } },
        });
        hub.clock.set(Date.now() / 1000);
        await hub.start();
        return hub;
      };
      let hub = await open();
      await sensor!.publishAsync('hearth/record/hall/temperature', '19.5', { qos: 1 });
      const points = async () =>
        ((await post(hub, '/query_stream', { entity_name: 'hall', metric: 'temperature' })).body.points ?? []).map(
          (p: { value: number }) => p.value,
        );
      for (let i = 0; i < 100 && (await points()).length < 1; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await points()).toEqual([19.5]);
      await hub.stop();
      // Hearth is down: the broker queues for its persistent session.
      await sensor!.publishAsync('hearth/record/hall/temperature', '20.5', { qos: 1 });
      hub = await open();
      for (let i = 0; i < 100 && (await points()).length < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await points()).toEqual([19.5, 20.5]);
      await hub.close();
      await sensor!.endAsync();
    } finally {
      broker.kill('SIGTERM');
    }
  });
});
