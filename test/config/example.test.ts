import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'smol-toml';
import { parseConfig, ENV_MAP } from '../../src/config/load.js';
import { ConfigSchema } from '../../src/config/schema.js';

describe('config.example.toml', () => {
  const text = readFileSync('config.example.toml', 'utf8');
  it('parses, and equals the built-in defaults', () => {
    const fromFile = parseConfig(parse(text));
    const defaults = parseConfig({});
    expect({ ...fromFile, timeseries: { ...fromFile.timeseries, timezone: '' } }).toEqual({
      ...defaults,
      timeseries: { ...defaults.timeseries, timezone: '' },
    });
  });
  it('documents every key and every environment variable', () => {
    const keys = (shape: Record<string, any>, prefix = ''): string[] =>
      Object.entries(shape).flatMap(([k, v]) => {
        const inner = v?.def?.innerType?.def?.shape ?? v?.def?.innerType?.def?.innerType?.def?.shape ?? v?.def?.shape;
        return inner ? keys(inner, `${prefix}${k}.`) : [`${prefix}${k}`];
      });
    for (const key of keys(ConfigSchema.shape)) {
      const leaf = key.split('.').pop();
      // a key, or an array of tables such as [[mqtt.mappings.user]]
      expect(text, key).toMatch(new RegExp(`^#? ?(${leaf} *=|\\[\\[${key.replaceAll('.', '\\.')}\\]\\])`, 'm'));
    }
    for (const env of Object.keys(ENV_MAP)) expect(text, env).toContain(`[${env}]`);
  });
});
