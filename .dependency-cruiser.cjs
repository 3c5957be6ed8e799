/**
 * The house rules (docs/ARCHITECTURE.md "House rules"), checked by `npm run lint` and so by `npm test`.
 * Violations that existed when the rules were written are listed in
 * .dependency-cruiser-known-violations.json and tolerated (`--ignore-known`); any new one fails.
 * When a known one is fixed, regenerate the baseline (`npm run lint:deps:baseline`) so it cannot come back.
 */
const doors = '^src/(http|mcp|mqtt|cli)/|^src/cli\\.[jt]s$'; // the mirror's src/cli.js is src/cli.ts
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'door-imports-db',
      comment:
        'Doors (HTTP routes, admin pages, MCP tools, the MQTT bridge, the CLI) reach storage through services ' +
        '(src/tiers/*, services.ts), never by importing src/db/.',
      severity: 'error',
      from: { path: doors },
      to: { path: '^src/db/' },
    },
    {
      name: 'door-imports-internals',
      comment:
        'The storage behind the services (src/internals.ts: db, vectors, repos, rollups) is for the wiring, ' +
        'scripts and tests; a door asks a service.',
      severity: 'error',
      from: { path: doors },
      to: { path: '^src/internals\\.[jt]s$' },
    },
    {
      name: 'io-imports-db',
      comment: 'Importers and exporters (src/io) write through the validating services, never straight into tables.',
      severity: 'error',
      from: { path: '^src/io/' },
      to: { path: '^src/db/' },
    },
    {
      name: 'tier-imports-door',
      comment: 'Services (src/tiers, src/patterns) and detectors are used by doors; they never import one.',
      severity: 'error',
      from: { path: '^(src/tiers|src/patterns|detectors)/' },
      to: { path: doors },
    },
    {
      name: 'config-imports-door',
      comment:
        "Configuration is read by every part; it imports no door (a door's schema it needs lives outside the door).",
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: doors },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^(src|detectors|scripts|integrations)/',
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
