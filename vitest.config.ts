import { defineConfig } from 'vitest/config';

/**
 * Two tiers (README "Developing"):
 * - unit: in-process tests (a real SQLite file, a real broker on port 0, real HTTP, fake clocks) —
 *   the inner loop, `npm run test:unit`;
 * - e2e: tests that run the built hub (dist/ CLI processes, `hearth serve`), a browser, Node-RED,
 *   Mosquitto, the soak and durability runs and the bench/eval smoke — `npm run test:e2e`. Its global
 *   setup builds dist/ first, so one e2e file run alone never tests a stale build.
 * test/e2e-list.test.ts fails when a file that spawns dist/ or a browser is missing from E2E.
 */
export const E2E = [
  'test/ai/use-lite.test.ts',
  'test/cli/**/*.test.ts',
  'test/deploy/**/*.test.ts',
  'test/docs/commands.test.ts',
  'test/docs/mcp-tools-doc.test.ts',
  'test/durability/**/*.test.ts',
  'test/http/admin/admin-browser.test.ts',
  'test/http/admin/admin-charts.test.ts',
  'test/http/admin/admin-finish.test.ts',
  'test/http/admin/admin-graph.test.ts',
  'test/http/admin/admin-manage.test.ts',
  'test/http/admin/admin-restart.test.ts',
  'test/http/admin/admin-tiers.test.ts',
  'test/http/admin/admin-window.test.ts',
  'test/http/health-under-load.test.ts',
  'test/integrations/ha-state-poller.test.ts',
  'test/integrations/node-red.test.ts',
  'test/integrations/openhome.test.ts',
  'test/lib/log.test.ts',
  'test/mcp/mcp.test.ts',
  'test/mqtt/broker-hardening.test.ts',
  'test/mqtt/external.test.ts',
  'test/mqtt/stand-in-broker.test.ts',
  'test/patterns/detector-lane.test.ts',
  'test/scripts/**/*.test.ts',
  'test/security/browser-guard.test.ts',
  'test/security/login-budget.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Each file gets its own process: native addons (better-sqlite3, sqlite-vec) and listeners stay isolated.
    pool: 'forks',
    // `npm run coverage`: the unit tier's v8 coverage of the product code (the e2e tier runs dist/ in
    // child processes, which v8 coverage of this process does not see).
    coverage: {
      provider: 'v8',
      include: ['src/**', 'detectors/**'],
      reporter: ['text-summary', 'html'],
      // The figure is printed even when a test fails (on a loaded machine a timeout should not hide it).
      reportOnFailure: true,
    },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: E2E } },
      { extends: true, test: { name: 'e2e', include: E2E, globalSetup: ['test/helpers/build-dist.ts'] } },
    ],
  },
});
