/**
 * OwnTracks (SPEC §7), root `owntracks`. In MQTT mode the apps publish (owntracks.org/booklet/tech/json):
 *
 * - `<root>/<user>/<device>`, `_type: "location"` `{lat, lon, acc?, tst, inregions?, …}` →
 *   a composite reading `location` = `{lat, lon, acc}` of person `<user>` at `tst`, and, when
 *   `inregions` is non-empty, a `presence` reading: `home` if any region is a home region, else the
 *   first region. An empty or missing `inregions` says nothing (older apps never send it), so no
 *   `not_home` is inferred from it.
 * - `<root>/<user>/<device>/event`, `_type: "transition"` `{event: "enter"|"leave", desc, tst, …}` →
 *   - enter: `locate` person `<user>` in the region (`desc`), and `presence` = `home` for a home
 *     region (case-insensitive; `home_regions`, default `["home"]`), else the region name;
 *   - leave: `locate` the person in `away` (so "where is Anna?" does not keep answering the place
 *     she left; overlapping regions are the known cost: leaving an inner region reads "away" until
 *     the next enter or location fix), and `presence` = `not_home` (Home Assistant's word).
 *   A transition without `desc` (a private region, not shared) is ignored: there is no name to
 *   locate in.
 * - `lwt`, `card`, `cmd`, `waypoint(s)`, `status`, `steps`, `beacon`, `encrypted` … → `[]`.
 *   Other sub-topics (`/cmd`, `/info`, `/waypoint`, `/step`, …) are not subscribed.
 *
 * The person entity is the topic's `<user>`; every device of a user reports for that person.
 * `tst` is the reading/sighting time; the spatial tier ignores a sighting older than the stored one,
 * so retained or replayed messages do not move anybody back.
 */
import { inRange, label, name, objectPayload, optString, topicMapping } from './payload.js';
import { ParseError, type BuiltinConfig, type Ingest, type LocateIngest, type ReadingIngest } from './types.js';
import type { Mapping } from './types.js';

const SOURCE = 'owntracks';
/** The container a person is located in after leaving a region. */
export const AWAY = 'away';

export interface OwntracksConfig extends BuiltinConfig {
  /** Region names (`desc`) that mean home, case-insensitive. */
  home_regions?: string[];
}

function num(o: Record<string, unknown>, key: string, required: boolean): number | undefined {
  const v = Object.hasOwn(o, key) ? o[key] : undefined;
  if (v === undefined || v === null) {
    if (required) throw new ParseError(`${key} is missing`);
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ParseError(`${key} must be a number`);
  return v;
}

function coordinate(o: Record<string, unknown>, key: 'lat' | 'lon'): number {
  const v = num(o, key, true)!;
  const limit = key === 'lat' ? 90 : 180;
  if (Math.abs(v) > limit) throw new ParseError(`${key} out of range`);
  return v;
}

/** `tst` is epoch seconds and mandatory on location and transition messages. */
const tst = (o: Record<string, unknown>) => inRange(num(o, 'tst', true)!, 'tst');

export function owntracksMapping(cfg: OwntracksConfig = { enabled: true, root: 'owntracks' }): Mapping {
  const filters = [`${cfg.root}/+/+`, `${cfg.root}/+/+/event`];
  const homes = new Set((cfg.home_regions ?? ['home']).map((h) => h.toLowerCase()));
  const presenceOf = (region: string) => (homes.has(region.toLowerCase()) ? 'home' : region);

  const reading = (user: string, metric: string, value: ReadingIngest['value'], ts: number): ReadingIngest => ({
    kind: 'reading',
    entity_name: user,
    entity_type: 'person',
    metric,
    value,
    ts,
    source: SOURCE,
  });

  function location(user: string, o: Record<string, unknown>): Ingest[] {
    const ts = tst(o);
    const value: Record<string, number> = { lat: coordinate(o, 'lat'), lon: coordinate(o, 'lon') };
    const acc = num(o, 'acc', false);
    if (acc !== undefined) value.acc = acc;
    const out: Ingest[] = [reading(user, 'location', value, ts)];
    const regions = Object.hasOwn(o, 'inregions') ? o.inregions : undefined;
    if (regions !== undefined && regions !== null) {
      if (!Array.isArray(regions) || !regions.every((r) => typeof r === 'string'))
        throw new ParseError('inregions must be a list of names');
      const names = (regions as string[]).filter((r) => r.trim() !== '').map((r) => label(r, 'region'));
      if (names.length)
        out.push(reading(user, 'presence', names.some((r) => homes.has(r.toLowerCase())) ? 'home' : names[0], ts));
    }
    return out;
  }

  function transition(user: string, device: string, o: Record<string, unknown>): Ingest[] {
    const ts = tst(o);
    const event = optString(o, 'event');
    if (event !== 'enter' && event !== 'leave') throw new ParseError('event must be "enter" or "leave"');
    const desc = optString(o, 'desc');
    if (desc === undefined) return [];
    const region = name(desc.trim(), 'desc');
    const locate: LocateIngest = {
      kind: 'locate',
      entity_name: user,
      entity_type: 'person',
      container_name: event === 'enter' ? region : AWAY,
      container_type: 'place',
      note: `${event === 'enter' ? 'entered' : 'left'} ${region} (${device})`,
      ts,
      source: SOURCE,
    };
    return [locate, reading(user, 'presence', event === 'enter' ? presenceOf(region) : 'not_home', ts)];
  }

  return topicMapping('owntracks', filters, (m, payload): Ingest[] => {
    const user = name(m[0], 'user');
    const device = label(m[1], 'device');
    // An empty payload is how a retained location is cleared (mosquitto_pub -r -n): nothing to read.
    const json = objectPayload(payload, 'expected a JSON object with _type');
    if (!json) return [];
    const type = optString(json, '_type');
    if (type === undefined) throw new ParseError('_type is missing');
    if (type === 'location') return location(user, json);
    if (type === 'transition') return transition(user, device, json);
    return [];
  });
}
