/**
 * Tool input schemas every MCP client can convert. Home Assistant's MCP integration turns each
 * tool's JSON Schema into voluptuous with `convert_to_voluptuous`
 * (home-assistant-libs/voluptuous-openapi): a (sub)schema with no `type`/`anyOf`/`oneOf` is
 * "Invalid schema, missing type", `allOf`/`multipleOf`/`uniqueItems` are refused — and one such
 * schema fails the whole server's tool list (homeassistant/components/mcp/coordinator.py raises
 * UpdateFailed). It also allows extra object keys only for `additionalProperties: true`.
 * zod renders "any JSON" (`z.unknown()`) as `{}` and records as `additionalProperties: {}`, so the
 * listed schemas are rewritten here (server.ts, once per tools/list answer): validation is unchanged
 * (the tools parse with zod).
 */
type Node = Record<string, unknown>;
const TYPED = ['type', 'anyOf', 'oneOf', 'enum', 'const'];
/** Any JSON value, spelled with types. */
const ANY_JSON = [
  { type: 'string' },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'object', additionalProperties: true },
  { type: 'array', items: { type: 'string' } },
];

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

export function portableSchema(schema: Node): Node {
  const out: Node = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties' && isNode(v))
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, isNode(s) ? portableSchema(s) : s]));
    else if ((k === 'anyOf' || k === 'oneOf') && Array.isArray(v))
      out[k] = v.map((s) => (isNode(s) ? portableSchema(s) : s));
    else if (k === 'items' && isNode(v)) out[k] = portableSchema(v);
    else if (k === 'additionalProperties' && isNode(v))
      out[k] = true; // `{}` or a value schema: extra keys allowed
    else if (k === 'propertyNames')
      continue; // zod's `{type: string}` for record keys: JSON keys are strings anyway
    else out[k] = v;
  }
  if (!TYPED.some((k) => k in out)) out.anyOf = ANY_JSON;
  if (out.enum && !out.type && Array.isArray(out.enum) && out.enum.every((e) => typeof e === 'string'))
    out.type = 'string';
  return out;
}
