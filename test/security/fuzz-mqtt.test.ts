/**
 * Property-based fuzzing of the MQTT bridge on the embedded broker (issue "Reliability and
 * security", item 5): hostile payloads and hostile topic levels on every mapping — native
 * hearth/record|remember|locate, Zigbee2MQTT, Tasmota, Home Assistant Statestream and discovery,
 * OwnTracks, two user mappings — published with a real `mqtt` client at QoS 1.
 *
 * Contract for every message: the broker acknowledges it (PUBACK within ACK_MS) and keeps the
 * client connected — a bad payload is counted and ignored (SPEC §7), it is never a reason to drop
 * the client — unless the TOPIC itself breaks the MQTT protocol (wildcards, NUL, empty, over 64 KiB,
 * `$SYS/`, `hearth/events/`), where a disconnect is the broker's documented answer; no mapping fails
 * with an unexpected (non-parse) error; no built-in prototype is polluted. Before the fuzz a few
 * facts and readings are stored; after it they read back the same, every mapping still ingests a
 * valid message, /health answers and PRAGMA integrity_check is ok.
 *
 * Seeds are fixed and runs bounded. A failure lists every distinct broken contract with the exact
 * topic, payload and what the bridge logged.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import mqtt, { type MqttClient } from 'mqtt';
import { buildTestHub, type TestHub } from '../helpers/hub.js';
import { pollution } from '../helpers/pollution.js';
import {
  CONTROL,
  FTS5,
  NASTY_STRINGS,
  NASTY_VALUES,
  NUMERIC_STRINGS,
  PATH_SEGMENTS,
  PROTO,
  RAW_JSON_VALUES,
  SQL,
  TIMESTAMPS,
  UNICODE,
  deepArray,
  deepObject,
  ofLength,
  rawJsonBodies,
} from './nasty-strings.js';

const SEED = 0x5ec_0007;
/** No PUBACK and no disconnect in this long: the bridge hangs on the message (sized for a loaded 2-core machine). */
const ACK_MS = 10_000;
/** Each fuzz test's timeout, for the same reason. */
vi.setConfig({ testTimeout: 120_000 });
const RUNS = { shaped: 60, text: 25, bytes: 10, topics: 40 };

let hub: TestHub;
let url: string;
let client: MqttClient | null = null;
const logs: string[] = [];

// ---------------------------------------------------------------------------------------------
// Publishing

const trunc = (s: string | Buffer, n = 400): string => {
  const t =
    typeof s === 'string'
      ? s
      : s.length > 200
        ? `<${s.length} bytes> ${s.subarray(0, 60).toString('hex')}…`
        : `<bytes> ${s.toString('hex')}`;
  return t.length > n ? `${t.slice(0, n)}… (${t.length} chars)` : t;
};

async function connect(): Promise<MqttClient> {
  const c = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 5000, clean: true });
  await new Promise<void>((resolve, reject) => {
    c.once('connect', () => resolve());
    c.once('error', reject);
  });
  c.on('error', () => {}); // reported through the publish outcome
  c.once('close', () => {
    if (client === c) client = null;
  });
  return c;
}

/** Topics the MQTT protocol (or the broker's reserved prefixes) refuses: a disconnect is the right answer. */
function protocolViolation(topic: string): boolean {
  return (
    topic === '' ||
    /[+#\u0000]/.test(topic) ||
    Buffer.byteLength(topic) > 65_535 ||
    topic.startsWith('$SYS/') ||
    topic.split('/').length > 100 || // aedes maxTopicLevels: refused at the protocol boundary by design
    topic.startsWith('hearth/events/') ||
    /[\ud800-\udfff]/.test(topic.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))
  );
}

interface Published {
  topic: string;
  payload: string | Buffer;
  retain: boolean;
  outcome: 'puback' | 'closed' | 'timeout' | 'client-error';
  ms: number;
  detail: string;
  polluted: string[];
  logged: string[];
}

class ContractError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

let published = 0;
async function publish(topic: string, payload: string | Buffer, retain = false): Promise<Published> {
  published++;
  client ??= await connect();
  const c = client;
  const logFrom = logs.length;
  const started = performance.now();
  let detail = '';
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    new Promise<Published['outcome']>((resolve) =>
      c.publish(topic, payload, { qos: 1, retain }, (err) => {
        if (err) detail = err.message;
        resolve(err ? (c.connected ? 'client-error' : 'closed') : 'puback');
      }),
    ),
    new Promise<Published['outcome']>((resolve) => c.once('close', () => resolve('closed'))),
    new Promise<Published['outcome']>((resolve) => (timer = setTimeout(() => resolve('timeout'), ACK_MS))),
  ]).catch((e: Error) => ((detail = e.message), 'client-error' as const));
  clearTimeout(timer);
  const ms = performance.now() - started;
  const polluted = pollution();
  if (outcome !== 'puback') {
    c.end(true);
    if (client === c) client = null;
  }
  return { topic, payload, retain, outcome, ms, detail, polluted, logged: logs.slice(logFrom) };
}

function describePublish(p: Published, problem: string): string {
  return [
    problem,
    `topic: ${JSON.stringify(trunc(p.topic, 200))}${p.retain ? ' (retained)' : ''}`,
    `payload: ${typeof p.payload === 'string' ? JSON.stringify(trunc(p.payload)) : trunc(p.payload)}`,
    `outcome: ${p.outcome} after ${Math.round(p.ms)} ms${p.detail ? ` (${p.detail})` : ''}`,
    p.polluted.length ? `polluted: ${p.polluted.join('; ')}` : '',
    p.logged.length ? `hub log: ${p.logged.map((l) => trunc(l, 300)).join(' | ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** Publishes and checks the bridge contract; throws ContractError naming the problem. */
async function expectHandled(topic: string, payload: string | Buffer, retain = false): Promise<Published> {
  const p = await publish(topic, payload, retain);
  const violation = protocolViolation(topic);
  let problem: string | null = null;
  let kind = '';
  if (p.polluted.length)
    [problem, kind] = [
      `the message polluted a built-in prototype: ${p.polluted.join('; ')}`,
      `polluted ${p.polluted.map((x) => x.split(' = ')[0])}`,
    ];
  else if (p.outcome === 'timeout')
    [problem, kind] = [`no PUBACK within ${ACK_MS} ms and no disconnect: the bridge hangs on this message`, 'timeout'];
  else if (p.outcome !== 'puback' && !violation) {
    [problem, kind] = [
      `the broker dropped the client without a PUBACK for a well-formed topic (a bad message must be counted and ignored, SPEC §7; an unacknowledged QoS 1 message is re-sent on every reconnect)`,
      `dropped ${topic.split('/')[0]}`,
    ];
  } else {
    const unexpected = p.logged.find((l) => /unexpected:|not acknowledged|mapping .* failed/.test(l));
    if (unexpected)
      [problem, kind] = [
        `the bridge hit an unexpected (non-parse) error`,
        `unexpected ${topic.split('/')[0]} ${unexpected
          .replace(/ on .*? \(\d+ so far\)/, '')
          .replace(/\d+/g, 'N')
          .slice(0, 80)}`,
      ];
  }
  if (problem) throw new ContractError(kind, describePublish(p, problem));
  return p;
}

async function collect<T>(
  values: Iterable<T> | fc.Arbitrary<T>,
  runs: number,
  salt: number,
  check: (v: T) => Promise<unknown>,
): Promise<void> {
  const found = new Map<string, string>();
  const once = async (v: T) => {
    try {
      await check(v);
    } catch (e) {
      if (!(e instanceof ContractError)) throw e;
      if (!found.has(e.kind)) found.set(e.kind, e.message);
    }
  };
  if (values instanceof fc.Arbitrary)
    await fc.assert(fc.asyncProperty(values, once), { seed: SEED + salt, numRuns: runs });
  else for (const v of values) await once(v);
  if (found.size) throw new Error(`${found.size} distinct problem(s):\n\n${[...found.values()].join('\n\n')}`);
}

// ---------------------------------------------------------------------------------------------
// Generators

const RAW = Symbol('raw');
type Raw = { [RAW]: string };
const raw = (text: string): Raw => ({ [RAW]: text });

/** JSON text of `base` with one (possibly nested, `a.b`) key replaced, deleted or added. */
function mutate(
  base: Record<string, unknown>,
  op: 'replace' | 'delete' | 'extra',
  path: string,
  value: unknown,
): string {
  const obj = structuredClone(base);
  const keys = op === 'extra' ? [path] : path.split('.');
  let target: Record<string, unknown> = obj;
  for (const k of keys.slice(0, -1)) target = (target[k] ??= {}) as Record<string, unknown>;
  const last = keys.at(-1)!;
  if (op === 'delete') {
    delete target[last];
    return JSON.stringify(obj);
  }
  const placeholder = 'RAW_PLACEHOLDER_5ec';
  const isRaw = typeof value === 'object' && value !== null && RAW in value;
  Object.defineProperty(target, last, {
    value: isRaw ? placeholder : value,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  const text = JSON.stringify(obj);
  return isRaw ? text.replace(`"${placeholder}"`, (value as Raw)[RAW]) : text;
}

const pathsOf = (o: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(o).flatMap(([k, v]) => [
    `${prefix}${k}`,
    ...(v && typeof v === 'object' && !Array.isArray(v) ? pathsOf(v as Record<string, unknown>, `${prefix}${k}.`) : []),
  ]);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 5 },
  { arbitrary: fc.constantFrom(...NASTY_VALUES), weight: 4 },
  { arbitrary: fc.constantFrom(...TIMESTAMPS), weight: 3 },
  { arbitrary: fc.constantFrom(...RAW_JSON_VALUES).map(raw), weight: 2 },
  {
    arbitrary: fc
      .constantFrom(deepArray(10_000), deepObject(10_000), deepObject(100, '__proto__'), '{"__proto__":{"polluted":1}}')
      .map(raw),
    weight: 1,
  },
  { arbitrary: fc.constantFrom(ofLength(1024), ofLength(1025), ofLength(70_000)), weight: 1 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }), weight: 2 },
  { arbitrary: fc.double(), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

/** A payload built from a mapping's realistic base: one field replaced / deleted / added. */
function shapedPayload(base: Record<string, unknown>): fc.Arbitrary<string> {
  const paths = pathsOf(base);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(fc.constantFrom(...paths), nastyValue).map(([p, v]) => mutate(base, 'replace', p, v)),
    },
    { weight: 1, arbitrary: fc.constantFrom(...paths).map((p) => mutate(base, 'delete', p, undefined)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.oneof(fc.constantFrom(...PROTO), fc.constantFrom(...NASTY_STRINGS)), nastyValue)
        .map(([k, v]) => mutate(base, 'extra', k, v)),
    },
  );
}

/** Plain text / scalar payloads. */
const textPayload: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.constantFrom(...NUMERIC_STRINGS),
  fc.constantFrom(...RAW_JSON_VALUES),
  fc.constantFrom(...TIMESTAMPS.map(String)),
  fc.string({ maxLength: 60 }),
  fc.json({ maxDepth: 3 }),
  fc.json({ maxDepth: 2 }).map((j) => j.slice(0, Math.max(1, j.length - 1))),
);
const bytePayload = fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a));

const now = () => Math.round(hub.clock.now());
const LEVEL_OK = ['kitchen', 'living_room', 'fuzz_device', 'Anna'];

interface Target {
  name: string;
  /** Topic with `{}` for each hostile-able level. */
  topic: string;
  base: () => Record<string, unknown> | string;
}

const TARGETS: Target[] = [
  {
    name: 'native record',
    topic: 'hearth/record/{}/{}',
    base: () => ({ value: 21.5, unit: '°C', ts: now() - 60, source: 'fuzz' }),
  },
  { name: 'native record (text)', topic: 'hearth/record/{}/{}', base: () => '21.5' },
  {
    name: 'native remember',
    topic: 'hearth/remember/{}',
    base: () => ({
      fact: 'likes the window open at night',
      category: 'preference',
      fact_key: 'window_night',
      source_trust: 3,
      confidence: 0.8,
      source: 'fuzz',
    }),
  },
  { name: 'native remember (text)', topic: 'hearth/remember/{}', base: () => 'prefers tea in the morning' },
  {
    name: 'native locate',
    topic: 'hearth/locate/{}',
    base: () => ({ container_name: 'fuzz drawer', confidence: 0.9, note: 'under the mail', source: 'fuzz' }),
  },
  { name: 'native locate (text)', topic: 'hearth/locate/{}', base: () => 'fuzz drawer' },
  {
    name: 'zigbee2mqtt',
    topic: 'zigbee2mqtt/{}',
    base: () => ({
      battery: 97,
      humidity: 45.1,
      linkquality: 120,
      temperature: 21.4,
      state: 'ON',
      color: { x: 0.46, y: 0.41 },
      last_seen: new Date(now() * 1000).toISOString(),
    }),
  },
  {
    name: 'zigbee2mqtt (nested device)',
    topic: 'zigbee2mqtt/{}/{}',
    base: () => ({ occupancy: true, illuminance_lux: 12 }),
  },
  { name: 'zigbee2mqtt bridge', topic: 'zigbee2mqtt/bridge/{}', base: () => ({ state: 'online' }) },
  {
    name: 'tasmota SENSOR',
    topic: 'tele/{}/SENSOR',
    base: () => ({
      Time: new Date((now() - 30) * 1000).toISOString().slice(0, 19),
      ENERGY: { Total: 1.23, Power: 45, Voltage: 231 },
      AM2301: { Temperature: 21.5, Humidity: 40 },
      TempUnit: 'C',
    }),
  },
  {
    name: 'tasmota STATE',
    topic: 'tele/{}/STATE',
    base: () => ({
      Time: new Date((now() - 30) * 1000).toISOString().slice(0, 19),
      UptimeSec: 3723,
      POWER: 'ON',
      Wifi: { RSSI: 80 },
    }),
  },
  { name: 'statestream state', topic: 'homeassistant/sensor/{}/state', base: () => '19.5' },
  {
    name: 'statestream attributes',
    topic: 'homeassistant/sensor/{}/attributes',
    base: () => ({ friendly_name: 'Fuzz', device_class: 'temperature' }),
  },
  { name: 'statestream unit', topic: 'homeassistant/sensor/{}/unit_of_measurement', base: () => '"°C"' },
  {
    name: 'statestream last_updated',
    topic: 'homeassistant/{}/{}/last_updated',
    base: () => `"${new Date(now() * 1000).toISOString()}"`,
  },
  {
    name: 'discovery',
    topic: 'homeassistant/sensor/{}/config',
    base: () => ({
      '~': 'home/fuzz',
      stat_t: '~/state',
      unit_of_meas: '°C',
      val_tpl: '{{ value_json.t }}',
      dev_cla: 'temperature',
      uniq_id: 'fuzz1',
    }),
  },
  {
    name: 'discovery (node id)',
    topic: 'homeassistant/sensor/{}/{}/config',
    base: () => ({
      state_topic: 'zigbee2mqtt/fuzz',
      unit_of_measurement: '°C',
      value_template: '{{ value_json.temperature }}',
    }),
  },
  {
    name: 'owntracks location',
    topic: 'owntracks/{}/{}',
    base: () => ({ _type: 'location', lat: 52.5, lon: 13.4, acc: 10, tst: now() - 5, inregions: ['home'], batt: 80 }),
  },
  {
    name: 'owntracks transition',
    topic: 'owntracks/{}/{}/event',
    base: () => ({
      _type: 'transition',
      event: 'enter',
      desc: 'Office',
      tst: now() - 5,
      lat: 52.5,
      lon: 13.4,
      acc: 10,
      t: 'c',
    }),
  },
  {
    name: 'user mapping (JSON paths)',
    topic: 'fuzz/{}/sensor/{}/{}',
    base: () => ({ v: 21.5, t: now() - 10, extra: { deep: [1, 2] } }),
  },
  { name: 'user mapping (plain)', topic: 'plainfuzz/{}/{}', base: () => ({ value: 3, unit: 'ppm' }) },
];

const fill = (t: Target, levels: string[]) => {
  let i = 0;
  return t.topic.replace(/\{\}/g, () => levels[i++ % levels.length]);
};
const okTopic = (t: Target, salt = 0) => fill(t, [LEVEL_OK[salt % LEVEL_OK.length], 'temperature', 'phone']);

const level = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...LEVEL_OK) },
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', ' ', '$SYS', '+', '#', 'a+b', 'a#b', '//', ofLength(300), ofLength(70_000)),
  },
);

// ---------------------------------------------------------------------------------------------
// Baseline

const BASELINE_FACTS: [string, string][] = [
  ['Ingrid Baseline', 'Ingrid Baseline keeps the greenhouse at 18 degrees'],
  ['Otto Baseline', 'Otto Baseline walks the dog every morning at seven'],
];

async function http(method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await hub.app.inject({ method, url: path, ...(body !== undefined && { payload: body as object }) });
  return { status: res.statusCode, body: res.json() as Record<string, any> };
}
async function ok(method: 'GET' | 'POST', path: string, body?: unknown) {
  const r = await http(method, path, body);
  if (r.status !== 200) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function snapshot() {
  const recalled = [];
  for (const [entity_name, fact] of BASELINE_FACTS) {
    for (const mode of ['keyword', 'vector', 'hybrid']) {
      const results = (await ok('POST', '/recall', { query: fact, entity_name, mode, top_k: 10 })).results as Record<
        string,
        unknown
      >[];
      recalled.push({ mode, hit: results.filter((r) => r.fact === fact).map(({ score: _s, ...rest }) => rest) });
    }
  }
  return {
    recalled,
    profile: await ok('GET', '/profile/Ingrid%20Baseline'),
    raw: (await ok('POST', '/query_stream', { entity_name: 'greenhouse-baseline', metric: 'temperature', start_ts: 0 }))
      .points,
    hourly: (
      await ok('POST', '/query_stream', {
        entity_name: 'greenhouse-baseline',
        metric: 'temperature',
        granularity: 'hour',
        start_ts: 0,
      })
    ).points,
    found: await ok('POST', '/find', { entity_name: 'baseline spectacles' }),
  };
}
let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  hub = await buildTestHub({
    config: {
      mqtt: {
        mode: 'embedded',
        port: 0,
        max_msgs_per_sec: 0,
        mappings: {
          user: [
            { topic: 'fuzz/+/sensor/#', entity: '{1}', metric: '{#}', value: '$.v', ts: '$.t', unit: '°C' },
            { topic: 'plainfuzz/+/+', entity: '{1}', metric: '{2}' },
          ],
        },
      },
      timeseries: { timezone: 'Europe/Berlin' },
    },
  });
  // Readings without a ts get the arrival time; keep the hub clock near real time.
  hub.clock.set(Math.floor(Date.now() / 1000));
  url = (await hub.start()).mqtt!;
  // The bridge logs through the app logger (silent in tests): capture it.
  (hub.app.log as unknown as { warn: (m: unknown) => void }).warn = (m) =>
    logs.push(typeof m === 'string' ? m : JSON.stringify(m));

  // Baseline, half over HTTP and half over MQTT.
  for (const [entity_name, fact] of BASELINE_FACTS) await ok('POST', '/remember', { entity_name, fact });
  for (let i = 0; i < 6; i++) {
    const p = await publish(
      'hearth/record/greenhouse-baseline/temperature',
      JSON.stringify({ value: 17 + i * 0.5, unit: '°C', ts: now() - 3600 * 3 + i * 1200 }),
    );
    expect(p.outcome).toBe('puback');
  }
  expect((await publish('hearth/locate/baseline spectacles', 'baseline study')).outcome).toBe('puback');
  before = await snapshot();
  expect(before.raw).toHaveLength(6);
  for (const r of before.recalled) expect(r.hit).toHaveLength(1);
}, 60_000);

afterAll(async () => {
  if (process.env.FUZZ_STATS) console.log(`fuzz-mqtt: ${published} messages`);
  client?.end(true);
  await hub?.close();
});

// ---------------------------------------------------------------------------------------------

describe('MQTT fuzz: every mapping', () => {
  for (const [i, t] of TARGETS.entries()) {
    describe(t.name, () => {
      const base = () => t.base();
      const isJson = () => typeof base() === 'object';

      it(`hostile payloads on ${t.topic}: shaped ×${RUNS.shaped}, text ×${RUNS.text}, bytes ×${RUNS.bytes}`, async () => {
        const shaped = isJson() ? shapedPayload(base() as Record<string, unknown>) : textPayload;
        const arb = fc.tuple(
          fc.oneof(
            { weight: 6, arbitrary: shaped },
            { weight: 3, arbitrary: textPayload },
            { weight: 1, arbitrary: bytePayload },
          ),
          fc.boolean(),
          fc.nat(LEVEL_OK.length - 1),
        );
        await collect(arb, RUNS.shaped + RUNS.text + RUNS.bytes, i, ([payload, retain, k]) =>
          expectHandled(okTopic(t, k), payload, retain),
        );
      });

      it('every corpus string as the payload (text) or in every string field (JSON); prototype keys as extra keys', async () => {
        const corpus = [...FTS5, ...SQL, ...PROTO, ...CONTROL, ...UNICODE, ...NUMERIC_STRINGS];
        const b = base();
        const stringPaths =
          typeof b === 'string'
            ? []
            : pathsOf(b).filter((p) => typeof p.split('.').reduce<any>((o, k) => o?.[k], b) === 'string');
        // Text payloads: the whole corpus. JSON: prototype keys in every string field, the rest round-robin.
        const payloads =
          typeof b === 'string'
            ? corpus
            : [
                ...stringPaths.flatMap((p) => PROTO.map((v) => mutate(b, 'replace', p, v))),
                ...(stringPaths.length
                  ? corpus
                      .filter((v) => !(PROTO as readonly string[]).includes(v))
                      .map((v, j) => mutate(b, 'replace', stringPaths[(j + i) % stringPaths.length], v))
                  : []),
                ...PROTO.map((k) => mutate(b, 'extra', k, { polluted: 'yes' })),
              ];
        await collect(payloads, 0, 0, (payload) => expectHandled(okTopic(t, 2), payload));
      });

      it('raw JSON: 10,000-level nesting, 1e999, duplicate keys, __proto__, 256 KiB + 1, empty', async () => {
        const keys = isJson() ? Object.keys(base() as object) : ['value'];
        const bodies: (string | Buffer)[] = [
          ...rawJsonBodies(keys).filter((b) => b.length <= 300_000),
          Buffer.alloc(256 * 1024 + 1, 0x7b),
          Buffer.alloc(256 * 1024 + 1, 0x31),
          Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), // BOM + {}
          Buffer.from([0xc3, 0x28]),
          Buffer.from([0xed, 0xa0, 0x80]),
          '',
        ];
        await collect(bodies, 0, 0, (b) => expectHandled(okTopic(t, 1), b));
      });

      it(`hostile topic levels ×${RUNS.topics} + prototype keys and control characters as a level + the rest of the corpus spread over the targets (each string meets 3)`, async () => {
        const payload = () => {
          const b = base();
          return typeof b === 'string' ? b : JSON.stringify(b);
        };
        await collect(fc.array(level, { minLength: 1, maxLength: 3 }), RUNS.topics, i + 100, (levels) =>
          expectHandled(fill(t, levels), payload()),
        );
        // Every target gets the prototype keys and control characters; the rest rotates so each string meets three targets.
        const rest = [...FTS5, ...SQL, ...UNICODE, ...PATH_SEGMENTS].filter(
          (_, j) => (j + i) % Math.ceil(TARGETS.length / 3) === 0,
        );
        await collect([...PROTO, ...CONTROL, ...rest], 0, 0, (lvl) =>
          expectHandled(fill(t, [lvl, 'temperature', 'phone']), payload()),
        );
      });
    });
  }

  it('unmapped and reserved topics', async () => {
    const topics = [
      'fuzz',
      'hearth',
      'hearth/record',
      'hearth/record/a',
      'hearth/record/a/b/c',
      'owntracks',
      'tele//SENSOR',
      '/',
      '//',
      'a/'.repeat(200),
      '$SYS/fuzz',
      'hearth/events/memory_added',
      'zigbee2mqtt',
      ...PROTO,
    ];
    await collect(topics, 0, 0, (topic) => expectHandled(topic, '{"value":1}'));
  });
});

describe('MQTT fuzz: pinned findings', () => {
  it('hearth/locate/<x> with container x (same name) is acknowledged and ignored, not a dropped client', async () => {
    await collect(['keys', '{"container_name":"KEYS"}'], 0, 0, (payload) =>
      expectHandled('hearth/locate/keys', payload),
    );
  });

  it('an OwnTracks transition into a region named like the user is acknowledged, not a dropped client', async () => {
    const msg = JSON.stringify({
      _type: 'transition',
      event: 'enter',
      desc: 'Garden',
      tst: now() - 1,
      lat: 52.5,
      lon: 13.4,
      acc: 10,
    });
    await expectHandled('owntracks/garden/phone/event', msg);
  });

  it('a reading with source "__proto__" does not pollute Object.prototype (ingest stats by_source)', async () => {
    await expectHandled('hearth/record/fuzz_room/proto', JSON.stringify({ value: 1, source: '__proto__' }));
  });
});

describe('MQTT fuzz: afterwards', () => {
  it('every mapping still ingests a valid message', async () => {
    const t = now();
    const checks: [string, string, () => Promise<boolean>][] = [
      [
        'hearth/record/after_room/temperature',
        '20.5',
        async () =>
          (await http('POST', '/query_stream', { entity_name: 'after_room', metric: 'temperature' })).body.points?.at(
            -1,
          )?.value === 20.5,
      ],
      [
        'hearth/remember/After Person',
        'After Person waters the ferns on Sundays',
        async () =>
          (await http('POST', '/recall', { query: 'waters the ferns', entity_name: 'After Person' })).body.results
            ?.length === 1,
      ],
      [
        'hearth/locate/after keys',
        'after hallway',
        async () =>
          (await http('POST', '/find', { entity_name: 'after keys' })).body.container_name === 'after hallway',
      ],
      [
        'zigbee2mqtt/after_sensor',
        '{"temperature":19.25}',
        async () =>
          (await http('POST', '/query_stream', { entity_name: 'after_sensor', metric: 'temperature' })).body.points
            ?.length === 1,
      ],
      [
        'tele/after_plug/SENSOR',
        JSON.stringify({ Time: new Date(t * 1000).toISOString().slice(0, 19), ENERGY: { Power: 12 } }),
        async () =>
          (await http('POST', '/query_stream', { entity_name: 'after_plug', metric: 'energy.power', start_ts: 0 })).body
            .points?.length === 1,
      ],
      [
        'homeassistant/sensor/after_temp/state',
        '18.5',
        async () =>
          (await http('POST', '/query_stream', { entity_name: 'sensor.after_temp', metric: 'state' })).body.points
            ?.length === 1,
      ],
      [
        'owntracks/afteruser/phone',
        JSON.stringify({ _type: 'location', lat: 1, lon: 2, tst: t - 1 }),
        async () =>
          (await http('POST', '/query_stream', { entity_name: 'afteruser', metric: 'location', start_ts: 0 })).body
            .points?.length === 1,
      ],
      [
        'fuzz/after_dev/sensor/a/b',
        JSON.stringify({ v: 7, t: t - 1 }),
        async () =>
          (await http('POST', '/query_stream', { entity_name: 'after_dev', metric: 'a/b', start_ts: 0 })).body.points
            ?.length === 1,
      ],
      [
        'plainfuzz/after_dev/co2',
        '412',
        async () =>
          (await http('POST', '/query_stream', { entity_name: 'after_dev', metric: 'co2' })).body.points?.length === 1,
      ],
    ];
    for (const [topic, payload, stored] of checks) {
      const p = await publish(topic, payload);
      expect(p.outcome, describePublish(p, 'valid message')).toBe('puback');
      expect(await stored(), `${topic} ${payload} was not stored`).toBe(true);
    }
  });

  it('data stored before the fuzz reads back the same; /health answers; the database is intact', async () => {
    expect(pollution()).toEqual([]);
    const after = await snapshot();
    expect(after).toEqual(before);
    const health = await http('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    expect(health.body.mqtt).toMatchObject({ mode: 'embedded', connected: true });
    expect(health.body.mqtt.bridge.received).toBeGreaterThan(1000);
    expect(hub.db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(hub.db.pragma('foreign_key_check')).toEqual([]);
  });
});
