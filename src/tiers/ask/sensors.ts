/**
 * `GET /sensors` / MCP `list_sensors` (SPEC §6): what can be asked about — each series with its
 * entity, aliases, kind (numeric, two-state, categorical, composite), unit, first and last reading
 * time and last value. From the series table and two index seeks per series (its first and last
 * reading), never a scan of readings.
 */
import { notFound } from '../../lib/errors.js';
import type { EntityRow } from '../entities/entities.repo.js';
import type { WindowReads } from '../timeseries/window.reader.js';
import type { SensorRow, SensorsInput, SensorsOutput } from './ask.schemas.js';
import { measuredConcept } from './concepts.js';
import { entityWords } from './say-value.js';
import type { SubjectSeries } from './subject.js';
import { isActive, isTwoState, stateWords } from './two-state.js';

export interface SensorsDeps {
  reads: WindowReads;
  entities: { find(name: string): EntityRow | undefined };
}

/** Entities named in the sentence before "and N more". */
const NAMED = 12;

export function listSensors(deps: SensorsDeps, input: SensorsInput): SensorsOutput {
  const { reads } = deps;
  let only: number | undefined;
  if (input.entity_name !== undefined) {
    const e = deps.entities.find(input.entity_name);
    if (!e) throw notFound(`entity_name: no entity named "${input.entity_name}"`);
    only = e.id;
  }
  const aliases = new Map<number, string[]>();
  for (const a of reads.aliases()) aliases.set(a.entity_id, [...(aliases.get(a.entity_id) ?? []), a.alias]);
  const sensors: SensorRow[] = [];
  for (const r of reads.series()) {
    if (only !== undefined && r.entity_id !== only) continue;
    const s: SubjectSeries = {
      ...r,
      aliases: aliases.get(r.entity_id) ?? [],
      concept: measuredConcept(r.metric, r.entity_name, r.unit),
    };
    const [first, last] = [reads.first(r.id), reads.last(r.id)];
    const twoState = isTwoState(s, last?.value);
    const kind: SensorRow['kind'] =
      r.value_type === 'composite'
        ? 'composite'
        : twoState && (r.value_type === 'categorical' || s.concept === 'state')
          ? 'two_state'
          : r.value_type === 'numeric'
            ? 'numeric'
            : 'categorical';
    const active = last && twoState ? isActive(s, last.value) : null;
    sensors.push({
      entity_name: r.entity_name,
      aliases: s.aliases,
      metric: r.metric,
      kind,
      unit: r.unit,
      first_ts: first?.ts ?? null,
      last_ts: last?.ts ?? null,
      last_value: last ? last.value : null, // a composite's is its JSON text
      // How the last value is said ("open", "off"), for two-state series.
      ...(active !== null && { last_state: stateWords(s)[active ? 0 : 1] }),
    });
  }
  // Each entity as it is said: a plain alias ("Anna" for person.anna), else its name in words.
  const said = (x: SensorRow) => x.aliases.find((a) => !/[._]/.test(a)) ?? entityWords(x.entity_name);
  const entities = [...new Set(sensors.map(said))];
  const more = entities.length > NAMED ? `, and ${entities.length - NAMED} more` : '';
  const result = sensors.length
    ? `${sensors.length} ${sensors.length === 1 ? 'sensor' : 'sensors'} on ${entities.length} ${entities.length === 1 ? 'thing' : 'things'}: ${entities.slice(0, NAMED).join(', ')}${more}.`
    : only !== undefined
      ? `${input.entity_name} has no readings.`
      : 'No readings yet.';
  return { result, sensors };
}
