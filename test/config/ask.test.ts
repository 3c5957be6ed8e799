/** The `[ask]` section: day parts as "start-end" local hours, read into the ask tier's DayParts. */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.js';
import { readWhen } from '../../src/tiers/ask/when.js';
import { tempDir } from '../helpers/hub.js';

const load = (toml: string) => {
  const p = join(tempDir(), 'config.toml');
  writeFileSync(p, toml);
  return loadConfig({ configPath: p, env: {} }).config;
};

describe('[ask] day parts', () => {
  it('defaults to SPEC §5: morning 06–12, afternoon 12–18, evening 18–22, night 22–06', () => {
    expect(loadConfig({ env: {}, configPath: undefined }).config.ask).toEqual({
      morning: [6, 12],
      afternoon: [12, 18],
      evening: [18, 22],
      night: [22, 6],
    });
  });

  it('reads "start-end" strings and [start, end] arrays, and readWhen uses them', () => {
    const config = load('[ask]\nevening = "17-23"\nnight = [23, 7]\n');
    expect(config.ask).toMatchObject({ morning: [6, 12], evening: [17, 23], night: [23, 7] });
    const now = Date.parse('2026-12-03T14:30:00Z') / 1000;
    const w = readWhen('was the door open last night', now, { tz: 'Europe/London', dayParts: config.ask });
    expect([w?.from, w?.to]).toEqual([
      Date.parse('2026-12-02T17:00:00Z') / 1000,
      Date.parse('2026-12-03T07:00:00Z') / 1000,
    ]);
  });

  it.each([
    ['[ask]\nmorning = "12-06"\n', /ask\.morning: expected local hours "start-end" with start before end/],
    ['[ask]\nevening = "18-25"\n', /ask\.evening: expected local hours/],
    ['[ask]\nnight = "22-22"\n', /ask\.night: expected local hours "start-end" \(the end is the next morning\)/],
    ['[ask]\nafternoon = "noon till six"\n', /ask\.afternoon: expected local hours/],
    ['[ask]\nmornin = "06-12"\n', /ask\.mornin: unknown key — did you mean morning\?$/],
  ])('stops on a bad day part with one line naming the key (%#)', (toml, message) => {
    expect(() => load(toml)).toThrow(message);
  });
});
