/**
 * What a series measures and what a question asks about, in a few everyday concepts ("how warm" →
 * temperature, "humid" → humidity, "how much energy" → energy), and the words of a question that
 * say how it asks rather than what about — left out when the subject is looked up by name.
 */
import { tokenize } from '../../ai/text.js';

export type Concept =
  | 'temperature'
  | 'humidity'
  | 'power'
  | 'energy'
  | 'battery'
  | 'co2'
  | 'light'
  | 'pressure'
  | 'noise'
  | 'presence'
  | 'state';

/** Question words of each concept (first match wins; tested on the lower-cased question). */
const ASKED: [Concept, RegExp][] = [
  [
    'temperature',
    /\b(warm(er|est|th)?|cold(er|est)?|hot(ter|test)?|chilly|cool(er|est)?|freezing|temperatures?|degrees?|heat(ed)?)\b/,
  ],
  ['humidity', /\b(humid(ity)?|damp(er|est)?|muggy|moist|dry|drier)\b/],
  ['energy', /\b(energy|electricity|kwh|consum(e|ed|ption)|how much .*\b(use|used|draw|drew))\b/],
  ['power', /\b(power|watts?|wattage|drawing)\b/],
  ['battery', /\bbatter(y|ies)\b/],
  ['co2', /\b(co2|carbon dioxide|air quality|stuffy)\b/],
  ['light', /\b(bright(er|est|ness)?|dark(er|est)?|lux|illuminance|light levels?)\b/],
  ['pressure', /\b(air )?pressure\b/],
  ['noise', /\b(noisy|noise|loud(er|est)?)\b/],
];

/** Series words (metric, entity name, unit) of each concept. */
const MEASURED: [Concept, RegExp][] = [
  ['temperature', /temp/],
  ['humidity', /humid/],
  ['energy', /energy|kwh|consumption/],
  ['power', /power|watt/],
  ['battery', /battery/],
  ['co2', /co2|carbon/],
  ['light', /illuminance|lux|light_level/],
  ['pressure', /pressure/],
  ['noise', /noise|sound/],
  ['state', /contact|occupancy|motion|state|switch|lock|door|window/],
];

const UNITS: [Concept, RegExp][] = [
  ['temperature', /^°?[cfk]$|°/i],
  ['energy', /^k?wh$/i],
  ['power', /^k?w$/i],
  ['light', /^(lx|lux)$/i],
  ['pressure', /^(hpa|mbar|kpa|pa)$/i],
];

/** The concept a question asks about, or null ("was the door open" names none: the subject decides). */
export function askedConcept(question: string): Concept | null {
  const q = question.toLowerCase();
  for (const [c, re] of ASKED) if (re.test(q)) return c;
  return null;
}

/** The concept a series measures, from its metric, its entity's name and its unit; null when unknown. */
export function measuredConcept(metric: string, entityName: string, unit: string | null): Concept | null {
  const m = metric.toLowerCase();
  for (const [c, re] of MEASURED) if (c !== 'state' && re.test(m)) return c;
  for (const [c, re] of UNITS) if (unit && re.test(unit)) return c;
  if (/^(person|device_tracker)\./i.test(entityName)) return 'presence';
  // Home Assistant names the measure in the entity (`sensor.bedroom_temperature`, metric `state`).
  const e = entityName.toLowerCase();
  for (const [c, re] of MEASURED) if (c !== 'state' && re.test(e)) return c;
  return /contact|occupancy|motion|state|switch|lock/.test(m) ? 'state' : null;
}

/**
 * Words that say how a question asks (shape, time, measure, state) — not what it is about. Their
 * stems are left out of the words a subject is looked up by.
 */
const ASKING = `how when what which whose was were is are did does do has have had ever still now currently right
  long many much often times time last first usual normal normally typical average mean minimum maximum min max lowest
  highest most least coldest warmest hottest total overall open opened opening closed close shut on off run running ran
  runs used use using boil boiled switched turned home away out back gone arrive arrived left leave locked unlocked lock
  unlock motion moved movement occupied warm warmer warmest cold colder hot hotter cool cooler chilly freezing
  temperature temperatures degrees heat heated humid humidity damp muggy dry power watts energy electricity kwh consume
  consumed consumption battery level levels reading readings value bright dark lux pressure noise noisy loud today
  yesterday tonight night nights morning mornings afternoon evening evenings week weeks month day days hour hours minute
  minutes since between ago past recent recently lately monday tuesday wednesday thursday friday saturday sunday
  am pm oclock than compared get got come came go went stay stayed tell know please say said about there any anyone
  anybody someone somebody everyone forget forgot still yet`;
const ASKING_STEMS = new Set(tokenize(ASKING));

/** Words of an entity name that say what kind of device it is, not which ("sensor", "plug"): they never decide. */
const GENERIC = new Set(
  tokenize(
    'sensor sensors binary plug plugs socket switch smart device meter monitor node zigbee tasmota sonoff shelly aqara state entity',
  ),
);

export const isAskingStem = (stem: string) => ASKING_STEMS.has(stem);
export const isGenericStem = (stem: string) => GENERIC.has(stem);
