/**
 * Entity types (SPEC §3: open strings). Nothing invents one: an entity first named without a type
 * is `unknown`, and the first later reference that carries a type fills it in (`person`, `room`,
 * `device`, …); a known type is never overwritten by another door's guess. What the doors say:
 *
 * - `remember`, `record`, `relate` without `entity_type`: nothing (unknown).
 * - Home Assistant (Statestream, its InfluxDB integration): by domain — `sensor.*` and
 *   `binary_sensor.*` are `sensor`, `person.*` a `person`, lights, switches and other actuators
 *   `device`; other domains say nothing.
 * - Zigbee2MQTT and Tasmota: `device`. OwnTracks users: `person`.
 * - `locate`: the object is an `object` unless the call says otherwise; a new container stays unknown
 *   unless `container_type` says (a bedside table is not a room).
 *
 * What is stored stays as the doors said it. For showing (the graph), `inferType` reads what the data
 * says about an entity still `unknown` — an inference, never written.
 */
export const UNKNOWN_TYPE = 'unknown';

const HA_DOMAIN_TYPES: Record<string, string> = {
  sensor: 'sensor',
  binary_sensor: 'sensor',
  person: 'person',
  device_tracker: 'device',
  light: 'device',
  switch: 'device',
  climate: 'device',
  fan: 'device',
  cover: 'device',
  lock: 'device',
  media_player: 'device',
  vacuum: 'device',
  camera: 'device',
  humidifier: 'device',
  water_heater: 'device',
};

/** The type a Home Assistant entity id (`domain.object_id`) implies, or undefined. */
export function haEntityType(entityId: string): string | undefined {
  const dot = entityId.indexOf('.');
  return dot > 0 ? HA_DOMAIN_TYPES[entityId.slice(0, dot)] : undefined;
}

/** What the data says about one entity, gathered by the read model (tiers/overview). */
export interface TypeEvidence {
  /** It has a voice print (voices tier): someone speaking. */
  voice?: boolean;
  /** Its current memories: the category and the fact. */
  memories?: { category: string; fact: string }[];
  /** Current relations it is in: the type and whether it is the first entity (`entity_a`). */
  relations?: { rel_type: string; first: boolean }[];
  /** Something was located in it (`locate` named it as the container). */
  container?: boolean;
  /** Metrics of its readings. */
  metrics?: string[];
}

export interface InferredType {
  type: string;
  /** In words, for a tooltip: "a voice print", "located things are in it", … */
  because: string;
}

/** A whole-word, case-insensitive pattern of any of `words`. */
const anyWord = (words: string[]) => new RegExp(`\\b(${words.join('|')})\\b`, 'i');
/** Exactly one of `words` (relation types, metric names). */
const oneOf = (words: string[]) => new RegExp(`^(${words.join('|')})$`, 'i');

const PET = anyWord([
  'dogs?',
  'puppy',
  'cats?',
  'kitten',
  'parrot',
  'budgie',
  'hamster',
  'rabbit',
  'bunny',
  'guinea pig',
  'goldfish',
  'tortoise',
  'pony',
  'pet',
  'vet',
  'leash',
  'walkies',
  'kibble',
  'litter ?box',
  'breed',
  'retriever',
  'labrador',
  'terrier',
  'spaniel',
  'collie',
  'poodle',
  'beagle',
  'dachshund',
  'tabby',
  'purrs?',
  'barks?',
  'meows?',
]);
const PERSON = anyWord([
  'he',
  'she',
  'him',
  'his',
  'her',
  'hers',
  'wife',
  'husband',
  'son',
  'daughter',
  'mother',
  'father',
  'mum',
  'mom',
  'dad',
  'grandma',
  'grandpa',
  'sister',
  'brother',
  'aunt',
  'uncle',
  'cousin',
  'friend',
  'colleague',
  'works?',
  'job',
  'office',
  'school',
  'university',
  'birthday',
  'born',
  'allergic',
  'vegetarian',
  'vegan',
  'drinks',
  'coffee',
  'tea',
  'reads',
  'plays',
  'speaks',
  'married',
]);
const PERSONAL_CATEGORIES = new Set(['preference', 'habit', 'routine', 'relationship']);
/** Relations only people are in, either side. */
const BETWEEN_PEOPLE = oneOf([
  'spouse_of',
  'married_to',
  'partner_of',
  'parent_of',
  'child_of',
  'mother_of',
  'father_of',
  'son_of',
  'daughter_of',
  'sibling_of',
  'brother_of',
  'sister_of',
  'friend_of',
  'knows',
  'works_with',
  'lives_with',
  'grandparent_of',
  'grandchild_of',
]);
/** Relations whose first entity is a person (`Brian owns Rex`, `Anna works_in office`). */
const PERSON_FIRST = oneOf(['owns', 'uses', 'works_in', 'works_for', 'cooks_in', 'walks', 'feeds', 'drives', 'wears']);
/** Relations whose second entity is a place. */
const PLACE_SECOND = oneOf([
  'sleeps_in',
  'lives_in',
  'works_in',
  'cooks_in',
  'located_in',
  'is_in',
  'in',
  'inside',
  'kept_in',
  'stored_in',
  'part_of',
]);
/** Metrics of something that senses its surroundings; any other metric (power, state, clients) is a device's. */
const SENSED = oneOf([
  'temperature',
  'temp',
  'humidity',
  'co2',
  'eco2',
  'pressure',
  'illuminance',
  'lux',
  'light_level',
  'motion',
  'occupancy',
  'presence',
  'contact',
  'door',
  'window',
  'moisture',
  'soil_moisture',
  'pm\\d+',
  'pm2_5',
  'voc',
  'tvoc',
  'noise',
  'sound',
  'water_leak',
  'leak',
  'smoke',
  'rain',
  'wind_speed',
  'uv',
  'battery',
  'linkquality',
  'dew_point',
  'air_quality',
]);

/**
 * The type the data implies for an entity whose stored type is `unknown`, or undefined when nothing
 * says. First that applies: a voice print or person-like facts or relations → person (facts naming
 * a dog or a vet → pet); a place things are located in or people sleep/live/work in → place;
 * readings → sensor (only sensed metrics: temperature, motion, …) or device; facts only in the
 * personal categories (preference, habit, routine, relationship) → person.
 */
export function inferType(ev: TypeEvidence): InferredType | undefined {
  const facts = ev.memories ?? [];
  const rels = ev.relations ?? [];
  if (ev.voice) return { type: 'person', because: 'a voice print' };
  if (facts.some((m) => PET.test(m.fact))) return { type: 'pet', because: 'facts about it name a pet' };
  const personal = (r: { rel_type: string; first: boolean }) =>
    BETWEEN_PEOPLE.test(r.rel_type) || (r.first && PERSON_FIRST.test(r.rel_type));
  if (rels.some(personal)) return { type: 'person', because: "its relations are a person's" };
  if (facts.some((m) => PERSON.test(m.fact))) return { type: 'person', because: "facts about it are a person's" };
  if (ev.container) return { type: 'place', because: 'things are located in it' };
  if (rels.some((r) => !r.first && PLACE_SECOND.test(r.rel_type)))
    return { type: 'place', because: "its relations are a place's" };
  const metrics = ev.metrics ?? [];
  if (metrics.length) {
    if (metrics.every((m) => SENSED.test(m))) return { type: 'sensor', because: 'it sends sensor readings' };
    return { type: 'device', because: 'it sends readings' };
  }
  if (facts.length && facts.every((m) => PERSONAL_CATEGORIES.has(m.category))) {
    return { type: 'person', because: 'its facts are preferences and habits' };
  }
  return undefined;
}
