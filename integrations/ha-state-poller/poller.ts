/**
 * hearth-ha-poller: for homes without MQTT, polls Home Assistant's REST API (`GET /api/states`
 * with a long-lived access token) and forwards the chosen entities' changed states to Hearth as
 * readings (`POST /record/bulk`): entity `<domain>.<object_id>`, metric `state`, HA's unit and
 * `last_updated` time — the same entities and metrics Statestream would give. The chosen `person.*`
 * entities' `friendly_name`s go to `POST /alias/homeassistant`, so "Anna" and `person.anna` are one
 * entity in Hearth (docs/identity.md), as Statestream's `friendly_name` topic does.
 */
import { parseArgs } from 'node:util';
import { haEntityType } from '../../src/tiers/entities/entity-types.js';

export interface PollerOptions {
  haUrl: string;
  haToken: string;
  hearthUrl: string;
  hearthToken?: string;
  /** entity ids or globs (`sensor.*`, `*_temperature`) */
  entities: string[];
  intervalSeconds: number;
}

interface HaState {
  entity_id: string;
  state: string;
  attributes?: { unit_of_measurement?: string; friendly_name?: string };
  last_updated?: string;
}

export interface Reading {
  entity_name: string;
  metric: 'state';
  value: number | string;
  unit?: string;
  ts?: string;
  source: 'ha_poller';
  entity_type?: string;
}

const NO_VALUE = new Set(['unknown', 'unavailable', '']);
const glob = (p: string) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);

/** The readings to send for HA's states: chosen, with a value, and changed since `seen`. */
export function toReadings(states: HaState[], patterns: string[], seen: Map<string, string>): Reading[] {
  const match = patterns.map(glob);
  const out: Reading[] = [];
  for (const s of states) {
    if (!match.some((m) => m.test(s.entity_id)) || NO_VALUE.has(s.state)) continue;
    const stamp = `${s.last_updated ?? ''}|${s.state}`;
    if (seen.get(s.entity_id) === stamp) continue;
    seen.set(s.entity_id, stamp);
    const n = Number(s.state);
    const r: Reading = {
      entity_name: s.entity_id,
      metric: 'state',
      value: s.state.trim() !== '' && Number.isFinite(n) ? n : s.state,
      source: 'ha_poller',
    };
    const unit = s.attributes?.unit_of_measurement;
    if (unit) r.unit = unit;
    if (s.last_updated) r.ts = s.last_updated;
    const type = haEntityType(s.entity_id);
    if (type) r.entity_type = type;
    out.push(r);
  }
  return out;
}

/** The chosen person entities' friendly names that changed since `seen` (kept under a separate key). */
export function toNames(
  states: HaState[],
  patterns: string[],
  seen: Map<string, string>,
): { entity_id: string; friendly_name: string }[] {
  const match = patterns.map(glob);
  const out: { entity_id: string; friendly_name: string }[] = [];
  for (const s of states) {
    const friendly = s.attributes?.friendly_name?.trim();
    if (!s.entity_id.startsWith('person.') || !friendly || !match.some((m) => m.test(s.entity_id))) continue;
    const key = `name\u0000${s.entity_id}`;
    if (seen.get(key) === friendly) continue;
    seen.set(key, friendly);
    out.push({ entity_id: s.entity_id, friendly_name: friendly });
  }
  return out;
}

/** POSTs a JSON body to Hearth; on failure forgets `keys` in `seen` (sent again next poll) and throws one line. */
async function send(o: PollerOptions, path: string, body: unknown, seen: Map<string, string>, keys: string[]) {
  const forget = () => keys.forEach((k) => seen.delete(k));
  const res = await fetch(new URL(path, o.hearthUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(o.hearthToken && { authorization: `Bearer ${o.hearthToken}` }) },
    body: JSON.stringify(body),
  }).catch((e: Error) => {
    forget();
    throw new Error(`Hearth at ${o.hearthUrl} did not answer (${e.message}); check HEARTH_URL`);
  });
  const answer = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) {
    forget();
    throw new Error(
      `Hearth answered ${res.status}: ${answer.message ?? 'no message'}${res.status === 401 ? '; set HEARTH_TOKEN' : ''}`,
    );
  }
}

/** One poll: HA → readings → Hearth. Throws one line a person can act on. */
export async function pollOnce(o: PollerOptions, seen: Map<string, string>): Promise<{ sent: number }> {
  const res = await fetch(new URL('/api/states', o.haUrl), { headers: { authorization: `Bearer ${o.haToken}` } }).catch(
    (e: Error) => {
      throw new Error(`Home Assistant at ${o.haUrl} did not answer (${e.message}); check HA_URL`);
    },
  );
  if (res.status === 401)
    throw new Error(
      'Home Assistant refused the token (401); create a long-lived access token in your HA profile and set HA_TOKEN',
    );
  if (!res.ok) throw new Error(`Home Assistant answered ${res.status} for /api/states`);
  const states = (await res.json()) as HaState[];
  const readings = toReadings(states, o.entities, seen);
  const names = toNames(states, o.entities, seen);
  // Names first: a person's alias is in place before readings under either name arrive.
  const readingKeys = readings.map((r) => r.entity_name);
  if (names.length)
    await send(o, '/alias/homeassistant', { names }, seen, [
      ...names.map((n) => `name\u0000${n.entity_id}`),
      ...readingKeys,
    ]);
  if (readings.length) await send(o, '/record/bulk', { readings }, seen, readingKeys);
  return { sent: readings.length };
}

export function optionsFrom(
  argv: string[],
  env: Record<string, string | undefined>,
): PollerOptions & { once: boolean } {
  const { values } = parseArgs({
    args: argv,
    options: { once: { type: 'boolean' }, entities: { type: 'string' }, interval: { type: 'string' } },
  });
  const missing = ['HA_URL', 'HA_TOKEN'].filter((k) => !env[k]);
  if (missing.length)
    throw new Error(`set ${missing.join(' and ')} (Home Assistant's URL and a long-lived access token)`);
  const entities = (values.entities ?? env.HA_ENTITIES ?? 'sensor.*,binary_sensor.*')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const intervalSeconds = Number(values.interval ?? env.POLL_SECONDS ?? 30);
  if (!Number.isFinite(intervalSeconds) || intervalSeconds < 1)
    throw new Error('--interval / POLL_SECONDS: a number of seconds ≥ 1');
  return {
    haUrl: env.HA_URL!,
    haToken: env.HA_TOKEN!,
    hearthUrl: env.HEARTH_URL ?? 'http://127.0.0.1:8900',
    hearthToken: env.HEARTH_TOKEN ?? env.HEARTH_API_TOKEN,
    entities,
    intervalSeconds,
    once: Boolean(values.once),
  };
}

/** The program (bin.ts): polls every interval, or once with --once (exit 1 when that poll failed). */
export async function main(): Promise<number> {
  let o: ReturnType<typeof optionsFrom>;
  try {
    o = optionsFrom(process.argv.slice(2), process.env);
  } catch (e) {
    process.stderr.write(`hearth-ha-poller: ${(e as Error).message}\n`);
    return 2;
  }
  const seen = new Map<string, string>();
  for (;;) {
    try {
      const { sent } = await pollOnce(o, seen);
      if (o.once) {
        process.stdout.write(`sent ${sent} readings\n`);
        return 0;
      }
    } catch (e) {
      process.stderr.write(`hearth-ha-poller: ${(e as Error).message}\n`);
      if (o.once) return 1;
    }
    await new Promise((r) => setTimeout(r, o.intervalSeconds * 1000));
  }
}
