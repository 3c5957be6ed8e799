import { defineConfig } from 'vitest/config';

/**
 * Three tiers (README "Developing"):
 * - unit: in-process tests of parts (a real SQLite file, a real broker on port 0, fake clocks) that do
 *   not build a whole hub — the inner loop, `npm run test:unit`;
 * - integration: in-process tests that build a whole hub (test/helpers/hub.ts `buildTestHub`,
 *   `hubForEachTest`, src/main.ts `createHub`, or a test-local helper calling them): every door and
 *   service, real HTTP/MQTT/MCP —
 *   `npm run test:integration`;
 * - e2e: tests that run the built hub (dist/ CLI processes, `hearth serve`), a browser, Node-RED,
 *   Mosquitto, the soak and durability runs and the bench/eval smoke — `npm run test:e2e`. Its global
 *   setup builds dist/ first, so one e2e file run alone never tests a stale build.
 * A file in both lists is e2e. test/e2e-list.test.ts fails when a file that spawns dist/ or a browser is
 * missing from E2E, or one that builds a whole hub is missing from INTEGRATION (or E2E).
 * No tier asserts a duration: timings are rows of `npm run bench` (scripts/bench/stopwatch*.ts).
 */
export const INTEGRATION = [
  'test/ai/use-lite-onnx.test.ts',
  'test/docs/http-api-doc.test.ts',
  'test/hardening/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/integrations/**/*.test.ts',
  'test/io/**/*.test.ts',
  'test/mcp/all-tools.test.ts',
  'test/mcp/entity-tools.test.ts',
  'test/mcp/http-dispatch.test.ts',
  'test/mcp/sse.test.ts',
  'test/mqtt/aliases-mqtt.test.ts',
  'test/mqtt/bridge.test.ts',
  'test/mqtt/ingest-doors.test.ts',
  'test/patterns/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/tiers/aliases.test.ts',
  'test/tiers/ask/ask-doors.test.ts',
  'test/tiers/ask/ask-memory-doors.test.ts',
  'test/tiers/ask/ask-readings.test.ts',
  'test/tiers/ask/memory-answers.test.ts',
  'test/tiers/ask/subject.test.ts',
  'test/tiers/context.test.ts',
  'test/tiers/entity-manage.test.ts',
  'test/tiers/entity-types.test.ts',
  'test/tiers/extract.test.ts',
  'test/tiers/graph-types.test.ts',
  'test/tiers/keyword-mode.test.ts',
  'test/tiers/memory.embedder.test.ts',
  'test/tiers/memory.reembed.test.ts',
  'test/tiers/memory.service.test.ts',
  'test/tiers/overview.service.test.ts',
  'test/tiers/recall-named.test.ts',
  'test/tiers/semantic-paths.test.ts',
  'test/tiers/session-possible.test.ts',
  'test/tiers/spatial.encoder.test.ts',
  'test/tiers/spatial.meaning.test.ts',
  'test/tiers/status.service.test.ts',
  'test/tiers/supersession-confidence.test.ts',
  'test/tiers/voices.test.ts',
  'test/tiers/timeseries/ingest-timing.test.ts',
  'test/tiers/timeseries/intake.test.ts',
  'test/tiers/timeseries/query-stream-alias.test.ts',
  'test/tiers/timeseries/rollup-lane.test.ts',
];

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
    // Sized for a loaded 2-core machine (other tiers, other work): a test that takes 1 s alone may take 10.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file gets its own process: native addons (better-sqlite3, sqlite-vec) and listeners stay isolated.
    pool: 'forks',
    // `npm run coverage`: the unit and integration tiers' v8 coverage of the product code (the e2e tier runs dist/ in
    // child processes, which v8 coverage of this process does not see).
    coverage: {
      provider: 'v8',
      include: ['src/**', 'detectors/**'],
      reporter: ['text-summary', 'html'],
      // The figure is printed even when a test fails (on a loaded machine a timeout should not hide it).
      reportOnFailure: true,
    },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...E2E, ...INTEGRATION] } },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: E2E, testTimeout: 60_000 } },
      { extends: true, test: { name: 'e2e', include: E2E, globalSetup: ['test/helpers/build-dist.ts'] } },
    ],
  },
});
