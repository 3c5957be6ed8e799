/**
 * The one validation path of every door (HTTP routes, MCP tools, MQTT items, bulk items) and one
 * wording for what is wrong: "<field>: <what is wrong>". `check` parses with the shared schema and
 * this module's error map, so a message says what was expected and what came instead, "required"
 * for a missing field, the accepted types of a union, and the field meant by an unknown one.
 */
import { z } from 'zod';
import { HubError } from './errors.js';
import { closestFields } from './suggest.js';

type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;

const TYPE_NOUNS: Record<string, string> = {
  int: 'integer',
  bigint: 'integer',
  record: 'object',
  map: 'object',
  tuple: 'array',
  set: 'array',
};
const article = (w: string) => (/^[aeiou]/.test(w) ? `an ${w}` : `a ${w}`);
const noun = (expected: string) => article(TYPE_NOUNS[expected] ?? expected);
/** "a, b or c". */
export const orList = (xs: readonly string[]) =>
  xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;
const andList = (xs: readonly string[]) =>
  xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;

/** What arrived, in words. */
function got(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'a number out of range';
  if (typeof v === 'string') return v.length <= 40 ? JSON.stringify(v) : 'a longer string';
  if (typeof v === 'boolean') return String(v);
  return typeof v === 'object' ? 'an object' : typeof v;
}

/** The alternatives a union accepts ("a number", "one of user, hardware…"), or undefined when a branch failed deeper. */
function alternatives(branches: readonly (readonly Issue[])[], options?: readonly z.ZodType[]): string[] | undefined {
  const out: string[] = [];
  for (const [i, issues] of branches.entries()) {
    const first = issues[0];
    if (!first || first.path.length) return undefined;
    const described = options?.[i]?.description;
    if (first.code === 'invalid_type') out.push(described ?? noun(first.expected));
    else if (first.code === 'invalid_value') out.push(described ?? `one of ${first.values.map(String).join(', ')}`);
    else if (first.code === 'invalid_union') {
      const inner = alternatives(first.errors);
      if (!inner) return undefined;
      out.push(...inner);
    } else return undefined;
  }
  return [...new Set(out)];
}

/** A client-chosen key, quoted (it may be empty, hold spaces or colons) and kept short. */
const quoted = (k: string) => (k.length > 40 ? `${JSON.stringify(k.slice(0, 40))}…` : JSON.stringify(k));

/**
 * `unknown field "catgory" — did you mean category?`. Reported on the object that has the key
 * ("body: …", "readings.3: …"), so the message starts with a field the route has, whatever the key.
 */
function unknownFields(iss: Extract<RawIssue, { code: 'unrecognized_keys' }>): string {
  const shape = ((iss.inst as z.ZodObject | undefined)?._zod.def.shape ?? {}) as Record<string, z.ZodType>;
  const known = Object.keys(shape);
  const guess = closestFields(iss.keys[0], known, (f) => shape[f]?.description);
  const hint = guess.length
    ? ` — did you mean ${orList(guess)}?`
    : known.length
      ? `; the fields are ${andList(known)}`
      : '';
  const more =
    iss.keys.length > 1
      ? ` (also unknown: ${iss.keys.slice(1, 6).map(quoted).join(', ')}${iss.keys.length > 6 ? ', …' : ''})`
      : '';
  return `unknown field ${quoted(iss.keys[0])}${hint}${more}`;
}

function bound(iss: Extract<RawIssue, { code: 'too_big' | 'too_small' }>): string | undefined {
  const big = iss.code === 'too_big';
  const limit = Number(
    big ? (iss as { maximum: number | bigint }).maximum : (iss as { minimum: number | bigint }).minimum,
  );
  const word = big ? (iss.inclusive ? 'at most' : 'less than') : iss.inclusive ? 'at least' : 'more than';
  switch (iss.origin) {
    case 'number':
    case 'int':
    case 'bigint':
      return `must be ${word} ${limit}, got ${got(iss.input)}`;
    case 'string':
      return !big && limit === 1 ? 'must not be empty' : `must be ${word} ${limit} characters`;
    case 'array':
    case 'set':
      return !big && limit === 1 ? 'must not be empty' : `must have ${word} ${limit} items`;
    default:
      return undefined;
  }
}

/** zod's per-parse error map: schema-level messages (`.min(1, 'must not be empty')`) still win. */
export const hearthErrors: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined) return `required — ${noun(iss.expected)}`;
      if (iss.expected === 'number' && Number.isNaN(iss.input)) return 'expected a number';
      if (iss.expected === 'number' && typeof iss.input === 'number')
        return 'a number out of range; expected a finite number';
      return `expected ${noun(iss.expected)}, got ${got(iss.input)}`;
    case 'invalid_union': {
      const options = (iss.inst as z.ZodUnion | undefined)?._zod.def.options as z.ZodType[] | undefined;
      const alts = alternatives(iss.errors, options);
      if (iss.input === undefined) return alts ? `required — ${orList(alts)}` : 'required';
      return alts ? `expected ${orList(alts)}, got ${got(iss.input)}` : undefined;
    }
    case 'invalid_value':
      return iss.input === undefined
        ? 'required'
        : `expected one of ${iss.values.map(String).join(', ')}, got ${got(iss.input)}`;
    case 'unrecognized_keys':
      return unknownFields(iss);
    case 'too_big':
    case 'too_small':
      return bound(iss);
    default:
      return undefined;
  }
};

type LooseIssue = {
  path?: PropertyKey[];
  instancePath?: string;
  message?: string;
  code?: string;
  keyword?: string;
  keys?: string[];
  params?: { keys?: string[] };
};

/**
 * "<field>: <what is wrong>" for one issue: an unknown field first (a misspelt required field is
 * also reported missing, and the misspelling is the cause), else the first. `root` names the
 * whole input, `prefix` goes before every field path.
 */
export function describeIssues(issues: readonly Issue[] | readonly LooseIssue[], root = 'body', prefix = ''): string {
  const all = issues as readonly LooseIssue[];
  const first = all.find((i) => (i.code ?? i.keyword) === 'unrecognized_keys') ?? all[0];
  if (!first) return `${root}: invalid`;
  const path = first.path
    ? first.path.map(String).join('.')
    : (first.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const keys = first.keys ?? first.params?.keys;
  const code = first.code ?? first.keyword;
  let message = first.message ?? 'invalid';
  if (code === 'unrecognized_keys' && keys?.length && !message.startsWith('unknown field'))
    message = `unknown field ${quoted(keys[0])}`;
  // Without hearthErrors zod says "Invalid input: expected string, received undefined" for a missing field.
  if (/received undefined$/.test(message)) message = 'required';
  return path ? `${prefix}${path}: ${message}` : `${root}: ${message}`;
}

export type Checked<T> = { success: true; data: T } | { success: false; issues: Issue[]; message: string };

const isObjectSchema = (s: z.ZodType): s is z.ZodObject => s instanceof z.ZodObject;

/**
 * Parses `data` with a shared schema. An absent input (undefined or null: a POST without a body,
 * a tool called without arguments) is `{}` for an object schema, so a route whose fields are all
 * optional needs no body; when the schema needs fields, the message lists them.
 */
export function check<S extends z.ZodType>(
  schema: S,
  data: unknown,
  root = 'input',
  prefix = '',
): Checked<z.output<S>> {
  const absent = (data === undefined || data === null) && isObjectSchema(schema);
  const r = schema.safeParse(absent ? {} : data, { error: hearthErrors });
  if (r.success) return { success: true, data: r.data };
  const required = absent
    ? Object.entries((schema as z.ZodObject).shape)
        .filter(([, f]) => !(f as z.ZodType).isOptional())
        .map(([k]) => k)
    : [];
  const message = required.length
    ? `${root}: required — a JSON object with ${andList(required)}`
    : describeIssues(r.error.issues, root, prefix);
  return { success: false, issues: r.error.issues, message };
}

/** Parses with a shared schema, or throws HubError('invalid') naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown, root = 'input'): z.infer<S> {
  const r = check(schema, data, root);
  if (!r.success) throw new HubError('invalid', r.message);
  return r.data;
}
