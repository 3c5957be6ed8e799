/**
 * The tiers (vitest.config.ts) hold what their names say. The unit and integration tiers must not
 * depend on dist/: a test that runs the built hub, a browser, Node-RED or a Mosquitto process belongs
 * in the E2E list, whose setup builds dist/ first (else it would silently test a stale build). The unit
 * tier builds no whole hub: a test that does belongs in the INTEGRATION list (or E2E).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { E2E, INTEGRATION } from '../vitest.config.js';

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
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );
const globToRe = (g: string) =>
  new RegExp(
    `^${g
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '(.*/)?')
      .replace(/\*/g, '[^/]*')}$`,
  );
const inE2e = (f: string) => E2E.some((g) => globToRe(g).test(f));
const inIntegration = (f: string) => INTEGRATION.some((g) => globToRe(g).test(f));
/** What builds a whole hub: test/helpers/hub.ts's builders, or src/main.ts's createHub directly. */
const WHOLE_HUB = /\b(buildTestHub|hubForEachTest|createHub|startHub)\(/;
/** Test-local helpers (e.g. test/tiers/ask/home.ts) that build one: a test importing them builds one too. */
const hubHelpers = (all: string[]) =>
  new Set(all.filter((f) => f !== 'test/helpers/hub.ts' && WHOLE_HUB.test(readFileSync(f, 'utf8'))));
const buildsHub = (f: string, helpers: Set<string>) => {
  const text = readFileSync(f, 'utf8');
  if (WHOLE_HUB.test(text)) return true;
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)].some((m) => helpers.has(join(dirname(f), `${m[1]}.ts`)));
};

describe('test tiers', () => {
  it('every test file that runs dist/, a browser, Node-RED or Mosquitto is in the e2e tier', () => {
    const stray = files('test').filter(
      (f) => f !== 'test/e2e-list.test.ts' && !inE2e(f) && MARKERS.some((m) => m.test(readFileSync(f, 'utf8'))),
    );
    expect(stray).toEqual([]);
  });

  it('every test file that builds a whole hub is in the integration (or e2e) tier', () => {
    const helpers = hubHelpers(sources('test'));
    const stray = files('test').filter((f) => !inE2e(f) && !inIntegration(f) && buildsHub(f, helpers));
    expect(stray).toEqual([]);
  });

  it('every entry of both lists matches a test file (a renamed file does not drop out of its tier)', () => {
    const all = files('test');
    expect([...E2E, ...INTEGRATION].filter((g) => !all.some((f) => globToRe(g).test(f)))).toEqual([]);
  });
});
