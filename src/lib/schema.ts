/**
 * Zod building blocks shared by every tier's schemas. No transforms here: the same schema must
 * render to JSON Schema (OpenAPI at /docs, MCP tool input) and validate at every door.
 * Services normalise values (e.g. `toEpoch`) after validation. Each operation's input is a
 * `z.strictObject`: an unknown top-level field is refused by name (`lib/validation.ts`), and the
 * JSON Schema says `additionalProperties: false`; free-form values (`JsonObject`, composite
 * readings, slot values) keep any keys.
 */
import { z } from 'zod';
import { TRUST_LABELS } from './trust.js';
import { epochProblem, ISO_WITH_ZONE, MAX_EPOCH_S, MIN_EPOCH_S, parseIsoWithZone } from './datetime.js';
import { nameKey, normaliseName } from './names.js';

/** Epoch seconds (number) or ISO-8601 with a zone. Year 1..9999 only; milliseconds are named as such. */
const outOfRange = { error: (iss: { input?: unknown }) => epochProblem(iss.input as number) };
export const Timestamp = z.union([
  z.number().min(MIN_EPOCH_S, outOfRange).max(MAX_EPOCH_S, outOfRange).describe('epoch seconds'),
  z
    .string()
    .regex(ISO_WITH_ZONE, 'expected epoch seconds or an ISO-8601 date-time with a zone (e.g. 2026-11-30T18:10:00Z)')
    .refine(
      (s) => parseIsoWithZone(s) !== undefined,
      'not a real date-time (check the day of the month, hours 00–23, minutes and seconds 00–59)',
    )
    .describe('an ISO-8601 date-time with a zone'),
]);
export type TimestampInput = z.infer<typeof Timestamp>;

export function toEpoch(value: TimestampInput): number;
export function toEpoch(value: TimestampInput | undefined): number | undefined;
export function toEpoch(value: TimestampInput | undefined): number | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? value : parseIsoWithZone(value)! / 1000;
}

/**
 * Names of entities: people, rooms, devices, objects. Normalised by `lib/names.ts` (format
 * characters removed, NFC, trimmed) — the one place names enter; identity is `nameKey()` of this.
 */
export const EntityName = z
  .string()
  .overwrite(normaliseName)
  .min(1, 'must not be empty')
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

export const EntityType = z.string().trim().min(1).max(50);

/**
 * A row id sent in a body or a query: a positive whole number, or one written as digits (a query
 * string, a form). Never `true` or `[1]`, which `z.coerce.number()` reads as 1 — a fuzzed
 * `{"relation_id": true}` must not end relation 1.
 */
export const RowId = z
  .union([z.number(), z.string().regex(/^\s*\d+\s*$/, 'expected a number')])
  .pipe(z.coerce.number<string | number>().int().positive());

/** Trust tier 1–5 or its label (SPEC §5). */
export const Trust = z.union([
  z.number().int().min(1).max(5),
  z.enum(Object.keys(TRUST_LABELS) as [keyof typeof TRUST_LABELS, ...(keyof typeof TRUST_LABELS)[]]),
]);
export type TrustInput = z.infer<typeof Trust>;
export const trustLevel = (t: TrustInput): number => (typeof t === 'number' ? t : TRUST_LABELS[t]);
export const trustLabel = (level: number): string =>
  Object.entries(TRUST_LABELS).find(([, v]) => v === level)?.[0] ?? String(level);

/** Free text an assistant wrote (facts, queries): bounded, no NUL. */
export const Text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max)
    .regex(/^[^\u0000]*$/, 'must not contain NUL bytes');

/**
 * Deepest nesting of objects and arrays accepted in free-form JSON fields (`meta`, composite
 * `value`, working-memory slot values) — the same bound the MQTT payload parser applies. Checked
 * without recursion, so a hostile 100k-deep body costs a loop, never the stack.
 */
export const MAX_JSON_DEPTH = 32;

/** True when no object/array in `v` lies deeper than `max` levels (the top-level object is level 1). */
export function withinDepth(v: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d > max) return false;
    for (const child of Object.values(x)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return true;
}
export const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`;

/** A free-form JSON object (`meta`): any keys, bounded nesting. */
export const JsonObject = z.record(z.string(), z.unknown()).refine((o) => withinDepth(o), TOO_DEEP);

/**
 * The `possible` flag of the answers recall feeds (recall, context, ask): also offer what it is not
 * sure of, marked low-confidence; on unless turned off. Each use says in its description where they go.
 */
export const Possible = (description: string) => z.boolean().default(true).describe(description);

/** A cross-field check and where its error sits, for `.refine(...check)`. */
type Refinement<T> = [check: (v: T) => boolean, params: { message: string; path: string[] }];

/** Two name fields must name two entities: identity is the name key (lib/names.ts), so "Brian" and " brian" are one. */
export const distinctEntities = <K extends string>(a: K, b: K, message: string): Refinement<Record<K, string>> => [
  (v) => nameKey(v[a]) !== nameKey(v[b]),
  { message, path: [b] },
];

/** At least one of two optional fields is given; the error sits on the first. */
export const eitherGiven = <K extends string>(a: K, b: K, message: string): Refinement<Partial<Record<K, unknown>>> => [
  (v) => v[a] !== undefined || v[b] !== undefined,
  { message, path: [a] },
];
