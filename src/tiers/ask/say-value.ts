/**
 * Numbers and names as a voice says them (SPEC §5 Ask `result`): values rounded as people round them,
 * with their unit ("19.5 °C", "62%", "1,850 W", "0.35 kWh"), and a series named in words
 * ("the garage door", "the bedroom temperature", "Anna") — never an id.
 */
import type { Concept } from './concepts.js';
import type { SubjectSeries } from './subject.js';

/** Rounds as people say it: temperatures to the half degree, percentages whole, small numbers to two places. */
export function roundValue(v: number, concept: Concept | null, unit: string | null): number {
  const abs = Math.abs(v);
  if (concept === 'temperature' && !/k$/i.test(unit ?? '')) return Math.round(v * 2) / 2;
  if (unit === '%' || concept === 'humidity') return Math.round(v);
  if (abs >= 100) return Math.round(v);
  if (abs >= 10) return Math.round(v * 10) / 10;
  if (abs >= 1) return Math.round(v * 10) / 10;
  return Math.round(v * 100) / 100;
}

/** "19.5 °C", "62%", "1,850 W", "3" (no unit). */
export function sayValue(v: number, concept: Concept | null, unit: string | null): string {
  const n = roundValue(v, concept, unit);
  const text = n.toLocaleString('en-GB', { maximumFractionDigits: 2 });
  if (!unit) return text;
  return unit === '%' ? `${text}%` : `${text} ${unit}`;
}

/** Home Assistant domains that say what the thing is ("light.kitchen" is the kitchen light). */
const DEVICE_DOMAINS = new Set(['light', 'switch', 'fan', 'lock', 'cover', 'vacuum', 'humidifier', 'camera']);

/**
 * The entity in words: Home Assistant's domain and the underscores gone ("binary_sensor.garage_door" →
 * "garage door"), a device domain kept as the noun ("light.kitchen" → "kitchen light").
 */
export function entityWords(name: string): string {
  const m = /^([a-z_]+)\.(.+)$/.exec(name);
  const words = (m ? m[2] : name).replace(/[._]/g, ' ').trim();
  if (!m || !DEVICE_DOMAINS.has(m[1]) || new RegExp(`\\b${m[1]}\\b`).test(words)) return words;
  return `${words} ${m[1]}`;
}

const GENERIC_TAIL = /\s+(sensor|plug|socket|switch|contact|meter|monitor)$/i;

/**
 * How an answer names what it is about: a person by name ("Anna"), a thing with "the" ("the garage
 * door", "the kettle" for `kettle_plug`), a measure with its place ("the bedroom temperature").
 */
export function sayThing(s: SubjectSeries, withMeasure = false): string {
  const person = s.entity_type === 'person' || /^person\./.test(s.entity_name);
  const spoken = s.aliases.find((a) => !/[._]/.test(a)); // "Anna" rather than person.anna
  let words = person && spoken ? spoken : entityWords(s.entity_name);
  if (!person) words = words.replace(GENERIC_TAIL, '').replace(GENERIC_TAIL, '') || entityWords(s.entity_name);
  const proper = person || /^[A-Z]/.test(words);
  const base = proper ? words : `the ${words}`;
  if (!withMeasure || !s.concept || s.concept === 'state' || s.concept === 'presence') return base;
  if (new RegExp(`\\b${s.concept}\\b`, 'i').test(words)) return base; // "the bedroom temperature" already
  return proper ? `${base}'s ${s.concept}` : `${base} ${s.concept}`;
}

/** Capitalises the first letter (a sentence that starts with "the garage door"). */
export const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
