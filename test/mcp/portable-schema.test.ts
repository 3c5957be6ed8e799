import { describe, expect, it } from 'vitest';
import { listHearthTools } from '../../scripts/lib/mcp-tools-doc.js';
import { portableSchema } from '../../src/mcp/portable-schema.js';

/**
 * What Home Assistant's MCP integration does with each tool's schema: voluptuous-openapi's
 * `convert_to_voluptuous` (home-assistant-libs/voluptuous-openapi), reduced to the cases where it
 * raises — any one of which fails the whole server in HA (coordinator.py → UpdateFailed).
 */
function haConvertErrors(s: unknown, at: string): string[] {
  if (typeof s !== 'object' || s === null || Array.isArray(s)) return [`${at}: Invalid schema, expected a dictionary`];
  const n = s as Record<string, any>;
  const bad = ['allOf', 'multipleOf', 'uniqueItems'].filter((k) => k in n).map((k) => `${at}: ${k} is not supported`);
  if (bad.length) return bad;
  if (n.oneOf) return n.oneOf.flatMap((x: unknown, i: number) => haConvertErrors(x, `${at}.oneOf[${i}]`));
  if (n.anyOf) {
    const requiredOnly = n.anyOf.every((x: Record<string, unknown>) => Object.keys(x).join() === 'required');
    if (!(requiredOnly && n.type === 'object'))
      return n.anyOf.flatMap((x: unknown, i: number) => haConvertErrors(x, `${at}.anyOf[${i}]`));
  }
  const type = n.type;
  if (type === undefined) return [`${at}: Invalid schema, missing type`];
  if (Array.isArray(type))
    return type.filter((t) => t !== 'null').flatMap((t) => haConvertErrors({ ...n, type: t }, at));
  if (['string', 'integer', 'number', 'boolean', 'null'].includes(type)) return [];
  if (type === 'object')
    return Object.entries(n.properties ?? {}).flatMap(([k, v]) => haConvertErrors(v, `${at}.${k}`));
  if (type === 'array') return 'items' in n ? haConvertErrors(n.items, `${at}[]`) : [`${at}: array without items`];
  return [`${at}: Unable to convert schema`];
}

describe('tool schemas Home Assistant can convert', () => {
  it("every tool's listed input schema converts (no missing type, no unsupported keyword)", async () => {
    const tools = await listHearthTools();
    expect(tools.flatMap((t) => haConvertErrors(t.inputSchema, t.name))).toEqual([]);
  });

  it('the checker would have caught what zod emits: "any JSON" without a type, records that refuse extra keys', () => {
    const raw = {
      type: 'object',
      properties: {
        value: { description: 'any JSON value' },
        meta: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
      },
    };
    expect(haConvertErrors(raw, 'wm_set')).toEqual(['wm_set.value: Invalid schema, missing type']);
    const fixed = portableSchema(raw);
    expect(haConvertErrors(fixed, 'wm_set')).toEqual([]);
    expect((fixed.properties as any).value.description).toBe('any JSON value');
    expect((fixed.properties as any).meta).toEqual({ type: 'object', additionalProperties: true });
  });

  it('wm_set.value and every meta accept any JSON / any keys as listed', async () => {
    const tools = Object.fromEntries(
      (await listHearthTools()).map((t) => [t.name, t.inputSchema.properties as Record<string, any>]),
    );
    expect(tools.wm_set.value.anyOf.map((s: { type: string }) => s.type)).toEqual([
      'string',
      'number',
      'boolean',
      'object',
      'array',
    ]);
    for (const name of ['relate', 'schedule', 'open_session'])
      expect(tools[name].meta.additionalProperties, name).toBe(true);
  });
});
