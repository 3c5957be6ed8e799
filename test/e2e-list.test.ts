/**
 * The unit tier must not depend on dist/: a test that runs the built hub, a browser, Node-RED or a
 * Mosquitto process belongs in vitest.config.ts's E2E list, whose setup builds dist/ first. This fails
 * when a file with such a marker is left in the unit tier (it would silently test a stale build).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E } from '../vitest.config.js';

const MARKERS = [
  /\bdist\/(src|scripts|integrations)\//,
  /helpers\/(cli|process)\.js'/,
  /from 'playwright-core'/,
  /\bstartMosquitto\(/,
  /node-red\/red\.js/,
];

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
const globToRe = (g: string) =>
  new RegExp(
    `^${g
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '(.*/)?')
      .replace(/\*/g, '[^/]*')}$`,
  );
const inE2e = (f: string) => E2E.some((g) => globToRe(g).test(f));

describe('test tiers', () => {
  it('every test file that runs dist/, a browser, Node-RED or Mosquitto is in the e2e tier', () => {
    const stray = files('test').filter(
      (f) => f !== 'test/e2e-list.test.ts' && !inE2e(f) && MARKERS.some((m) => m.test(readFileSync(f, 'utf8'))),
    );
    expect(stray).toEqual([]);
  });
});
