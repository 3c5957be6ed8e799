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
      name: 'tier-imports-wiring',
      comment:
        'Tiers are built by the wiring (services.ts) and handed to the doors; they never import it, not even a type: an operation table or an answer names the services it calls.',
      severity: 'error',
      from: { path: '^src/tiers/' },
      to: { path: '^src/(internals|main|scheduler|services|operations)\\.[jt]s$|^src/services/' },
    },
    {
      name: 'config-imports-door',
      comment:
        "Configuration is read by every part; it imports no door (a door's schema it needs lives outside the door).",
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: doors },
    },
    // The rest of the whiteboard's "never" arrows (docs/ARCHITECTURE.md "House rules"), one rule each.
    {
      name: 'detectors-import-storage-or-services',
      comment:
        'Detectors read through their context and return findings; the engine promotes. They never import src/db or a tier.',
      severity: 'error',
      from: { path: '^detectors/' },
      to: { path: '^src/(db|tiers)/' },
    },
    {
      name: 'storage-imports-tier-or-door',
      comment: 'Storage knows nothing of tiers or transports.',
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: `^src/(tiers|patterns)/|${doors}` },
    },
    {
      name: 'storage-imports-providers',
      comment:
        "Storage keeps vectors, it does not make them: src/db never imports src/ai (it keeps a VectorModel, the embedder's identity).",
      severity: 'error',
      from: { path: '^src/db/' },
      to: { path: '^src/ai/' },
    },
    {
      name: 'providers-import-tiers',
      comment: 'Providers (embedders, LLMs) are leaves: src/ai never imports a tier.',
      severity: 'error',
      from: { path: '^src/ai/' },
      to: { path: '^src/(tiers|patterns)/' },
    },
    {
      name: 'lib-is-a-leaf',
      comment: 'Helpers are leaves: src/lib imports only src/lib (and packages).',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^(src/(?!lib/)|detectors/)' },
    },
    {
      name: 'patterns-import-storage',
      comment:
        'The pattern engine reads and writes through services and repositories (tiers/patterns/patterns.repo.ts), never src/db.',
      severity: 'error',
      from: { path: '^src/patterns/' },
      to: { path: '^src/db/' },
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
