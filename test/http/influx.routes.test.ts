import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { buildTestHub, post, type TestHub } from '../helpers/hub.js';

let hub: TestHub;
beforeEach(async () => {
  hub = await buildTestHub({ config: { http: { token: 'tok' } } });
});
afterEach(async () => {
  await hub.close();
});
const auth = { authorization: 'Bearer tok' };
const write = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  hub.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...auth, ...headers },
  });

describe('InfluxDB line protocol', () => {
  it('takes Home Assistant InfluxDB lines on /write and maps them like Statestream', async () => {
    const ns = BigInt(Math.round(hub.clock.now())) * 1_000_000_000n;
    const body = [
      `°C,domain=sensor,entity_id=bedroom_temperature,friendly_name=Bedroom\\ Temperature value=21.5 ${ns}`,
      `binary_sensor.front_door,domain=binary_sensor,entity_id=front_door state="off",value=0 ${ns}`,
    ].join('\n');
    const res = await write('/write?db=home_assistant', body);
    expect(res.statusCode).toBe(204);
    const t = await post(hub, '/query_stream', { entity_name: 'sensor.bedroom_temperature', metric: 'state' }, auth);
    expect(t.body.points).toEqual([{ ts: hub.clock.now(), value: 21.5, unit: '°C', source: 'influxdb' }]);
    const d = await post(hub, '/query_stream', { entity_name: 'binary_sensor.front_door', metric: 'state' }, auth);
    expect(d.body.points[0].value).toBe('off');
  });

  it('takes gzipped Telegraf lines on /api/v2/write with a Token header and seconds precision', async () => {
    const s = Math.round(hub.clock.now());
    const body = `cpu,host=pi4,cpu=cpu-total usage_idle=97.5,usage_user=1.5 ${s}\nmem,host=pi4 used_percent=41.2 ${s}\n`;
    const res = await write('/api/v2/write?org=home&bucket=telegraf&precision=s', gzipSync(body), {
      'content-encoding': 'gzip',
      authorization: 'Token tok',
      'content-type': 'application/octet-stream',
    });
    expect(res.statusCode).toBe(204);
    const idle = await post(hub, '/query_stream', { entity_name: 'pi4', metric: 'cpu.usage_idle' }, auth);
    expect(idle.body.points[0].value).toBe(97.5);
    const mem = await post(hub, '/query_stream', { entity_name: 'pi4', metric: 'mem.used_percent' }, auth);
    expect(mem.body.points[0].ts).toBe(s);
  });

  it('reports a partial write with 400 naming the line, keeping the valid lines', async () => {
    const res = await write(
      '/write?precision=s',
      `weather,host=roof temp=3.5 ${Math.round(hub.clock.now())}\nthis is not line protocol\n`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, error: 'invalid' });
    expect(res.json().message).toMatch(/^body: partial write, 1 readings stored; line 2/);
    const ok = await post(hub, '/query_stream', { entity_name: 'roof', metric: 'weather.temp' }, auth);
    expect(ok.body.points).toHaveLength(1);
  });

  it('needs the token like every route, and refuses bad precision and bad gzip', async () => {
    expect((await write('/write', 'x v=1', { authorization: '' })).statusCode).toBe(401);
    const basic = Buffer.from('homeassistant:tok').toString('base64');
    expect(
      (await write('/write?precision=s', `x v=1 ${Math.round(hub.clock.now())}`, { authorization: `Basic ${basic}` }))
        .statusCode,
    ).toBe(204);
    const p = await write('/write?precision=weeks', 'x v=1');
    expect(p.statusCode).toBe(400);
    expect(p.json().message).toMatch(/^precision/);
    const g = await write('/write', Buffer.from('not gzip'), { 'content-encoding': 'gzip' });
    expect(g.statusCode).toBe(400);
    expect(g.json().message).toMatch(/gzip/);
  });

  it('answers 413, storing nothing, for 50,001 lines and for a gzip body over 10 MiB uncompressed (issue #35 item 12)', async () => {
    const ts = Math.round(hub.clock.now());
    const lines = Array.from({ length: 50_001 }, (_, i) => `m,host=h${i % 7} v=${i} ${ts}`).join('\n');
    const many = await write('/write?precision=s', lines);
    expect(many.statusCode).toBe(413);
    expect(many.json()).toMatchObject({
      error: 'too_large',
      message: expect.stringMatching(/50000 lines.*nothing was stored/),
    });
    // 50,000 lines and a trailing newline are within the limit.
    expect((await write('/write?precision=s', `${lines.split('\n').slice(1).join('\n')}\n`)).statusCode).toBe(204);
    const stored = hub.db.prepare('SELECT count(*) AS n FROM readings').get() as { n: number };
    expect(stored.n).toBe(50_000);
    const big = gzipSync(Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    const g = await write('/api/v2/write?bucket=b', big, { 'content-encoding': 'gzip' });
    expect(g.statusCode).toBe(413);
    expect(g.json()).toMatchObject({ error: 'too_large', message: expect.stringMatching(/10 MiB uncompressed/) });
  }, 60_000);
});
