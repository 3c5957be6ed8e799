/**
 * Builds the domain layer: every tier's service over one database. Doors (HTTP, MCP, MQTT, CLI)
 * receive this object and nothing else: services, never storage. The database, vector index, repos
 * and rollups behind it are reachable only through `internals(services)` (src/internals.ts), for the
 * wiring, scripts and tests.
 */
import type { Embedder, Llm } from './ai/types.js';
import { sharedWordNet, type WordNet } from './ai/wordnet.js';
import type { Config } from './config/schema.js';
import type { Db } from './db/open.js';
import { createVectorStore } from './db/vectors.js';
import { createReembedder } from './tiers/memory/reembed.js';
import type { Clock } from './lib/clock.js';
import { createAuditRepo } from './tiers/audit/audit.repo.js';
import { createContextService } from './tiers/context/context.service.js';
import { createEntitiesRepo } from './tiers/entities/entities.repo.js';
import { createMemoryService } from './tiers/memory/memory.service.js';
import { createRelationsService } from './tiers/memory/relations.service.js';
import { createHubEvents, type Events } from './services/events.js';
import { createTimeseriesService } from './tiers/timeseries/timeseries.service.js';
import { createRollups } from './tiers/timeseries/rollup.js';
import { createRetention } from './tiers/timeseries/retention.js';
import { createScheduleService } from './tiers/schedule/schedule.service.js';
import type { PruneInput } from './tiers/timeseries/timeseries.schemas.js';
import type { AuditQuery } from './tiers/audit/audit.schemas.js';
import type { Actor } from './tiers/audit/audit.repo.js';
import { createPatternEngine } from './patterns/engine.js';
import { createTrends } from './patterns/trends.js';
import type { Detector } from './patterns/detector.js';
import { createExtractor } from './tiers/memory/extract.js';
import { createEpisodicService } from './tiers/episodic/episodic.service.js';
import { createWorkingService } from './tiers/working/working.service.js';
import { createProspectiveService } from './tiers/prospective/prospective.service.js';
import { createSpatialService } from './tiers/spatial/spatial.service.js';
import { createMemoryMcpImporter } from './io/memory-mcp.js';
import { createImportMapRepo } from './tiers/imports/import-map.repo.js';
import { createEpisodicImport } from './tiers/episodic/import.js';
import { createWorkingImport } from './tiers/working/import.js';
import { createProspectiveImport } from './tiers/prospective/import.js';
import { createSpatialImport } from './tiers/spatial/import.js';
import { createPatternsImport } from './patterns/import.js';
import { createPatternReads, createPatternsRepo } from './tiers/patterns/patterns.repo.js';
import { createDetectorLane } from './services/detector-lane.js';
import { createMarkdownSync } from './io/markdown/markdown.service.js';
import { createVoicesRepo } from './tiers/voices/voices.repo.js';
import { createMergeRepo } from './tiers/voices/merge.repo.js';
import { createAliasesRepo } from './tiers/entities/aliases.repo.js';
import { createVoicesService } from './tiers/voices/voices.service.js';
import { createAliasesService } from './tiers/entities/aliases.service.js';
import { createOverviewService } from './tiers/overview/overview.service.js';
import { createEntityManageService } from './tiers/entities/manage.service.js';
import { plural } from './lib/plural.js';
import { createStatusService } from './tiers/status/status.service.js';
import { createEntitiesReader } from './tiers/entities/entities.reader.js';
import { attachInternals, without } from './internals.js';
import { registerContextParts } from './services/context-parts.js';
import { createAskService } from './tiers/ask/ask.service.js';
import { memoryAnswers } from './tiers/ask/answers.js';

export interface ServiceDeps {
  db: Db;
  clock: Clock;
  config: Config;
  embedder: Embedder;
  llm: Llm | null;
  events?: Events;
  /** Detectors the pattern engine runs (built-ins from detectors/, plus the user's from config). */
  detectors?: Detector[];
  log?: (msg: string) => void;
  /** WordNet for query expansion (default: the process-wide one, opened on first use). */
  wordnet?: WordNet;
}

export function createServices(deps: ServiceDeps) {
  const { db, clock, config, embedder, llm } = deps;
  const events = deps.events ?? createHubEvents();
  const wordnet = deps.wordnet ?? sharedWordNet();
  const entities = createEntitiesRepo(db, clock);
  const audit = createAuditRepo(db, clock);
  const vectors = createVectorStore(db, embedder);
  const relations = createRelationsService({ db, clock, entities, audit });
  const memory = createMemoryService({
    db,
    clock,
    embedder,
    vectors,
    entities,
    audit,
    config: config.memory,
    wordnet,
    relations,
    onAdded: (m) => events.emit('memory_added', m),
    onEntityForgotten: (name) => events.emit('entities_changed', { change: 'delete', entity_name: name }),
  });
  const reembed = createReembedder({ db, repo: memory.repo, vectors, embedder, log: deps.log });
  const context = createContextService({ clock, entities, memory, relations, decay: config.memory });

  const tz = config.timeseries.timezone;
  const rollups = createRollups(db, { timeZone: tz });
  const retention = createRetention(db, clock, { retentionDays: config.timeseries.retention_days });
  const timeseries = createTimeseriesService({
    db,
    clock,
    retentionDays: config.timeseries.retention_days,
    flushMs: config.timeseries.ingest_flush_ms,
    rollups,
    onCommitted: (items, results) => events.emit('readings_committed', { items, results }),
  });
  const schedule = createScheduleService({ db, clock, entities, audit, timeZone: tz });
  // Cached entity/series ids die with a renamed, merged, re-aliased or forgotten entity.
  events.on('entities_changed', () => timeseries.repo.invalidate());

  const log = deps.log ?? ((m: string) => console.error(m));
  const patternsRepo = createPatternsRepo(db);
  const patterns = createPatternEngine({
    reads: createPatternReads(db),
    repo: patternsRepo,
    clock,
    timeZone: tz,
    memory,
    onPromoted: (p) => events.emit('pattern_promoted', p),
    detectors: deps.detectors ?? [],
    config: config.patterns,
    beforeRun: () => timeseries.rollupAll(),
    lane: createDetectorLane({ db, timeZone: tz, detectorsDir: config.patterns.detectors_dir, log }),
    log,
  });
  const trends = createTrends({ timeseries, clock, llm, timeZone: tz });

  const episodic = createEpisodicService({ db, clock, entities, audit, llm, embedder });
  const working = createWorkingService({
    db,
    clock,
    entities,
    audit,
    remember: (input, actor) => memory.remember(input, actor),
  });
  const prospective = createProspectiveService({
    db,
    clock,
    embedder,
    entities,
    audit,
    wordnet,
    relations,
    onTriggered: (t) => events.emit('intention_triggered', t),
  });
  const spatial = createSpatialService({ db, clock, entities, audit, config: config.memory, wordnet, embedder });
  registerContextParts({ context, clock, timeseries, schedule, spatial, working, episodic });

  /** Rolls up what is new, then deletes raw readings past retention that are rolled up. */
  async function prune(input: PruneInput, actor: Actor = 'system') {
    await timeseries.rollupAll();
    const r = retention.prune({ dryRun: input.dry_run });
    if (!input.dry_run && r.deleted)
      audit.record(actor, 'readings.prune', null, null, { deleted: r.deleted, cutoff_ts: r.cutoff_ts });
    const verb = input.dry_run ? 'Would delete' : 'Deleted';
    return {
      result: `${verb} ${plural(r.deleted, 'raw reading')} older than ${plural(config.timeseries.retention_days, 'day')}; rollups kept`,
      dry_run: input.dry_run,
      ...r,
    };
  }

  const memoryMcpImport = createMemoryMcpImporter({
    map: createImportMapRepo(db),
    clock,
    audit,
    entities,
    memory,
    relations,
    timeseries,
    schedule,
    rollup: () => timeseries.rollupAll(),
    writers: {
      episodic: createEpisodicImport({ entities, repo: episodic.repo }),
      working: createWorkingImport({ entities, repo: working.repo }),
      prospective: createProspectiveImport({ entities, repo: prospective.repo }),
      spatial: createSpatialImport({ entities, repo: spatial.repo }),
      patterns: createPatternsImport({ repo: patternsRepo, entities }),
    },
  });

  // One of each repository the voices tier, the aliases and entity management share.
  const voicesRepo = createVoicesRepo(db);
  const moves = createMergeRepo(db);
  const aliasRows = createAliasesRepo(db);
  const voices = createVoicesService({
    db,
    repo: voicesRepo,
    moves,
    clock,
    entities,
    audit,
    onEntityChanged: (oldName) => events.emit('entities_changed', { change: 'rename', entity_name: oldName }),
    rollup: () => timeseries.rollupAll(),
    embedPending: async () => {
      for (let r = await memory.embedPending(256); r.embedded && r.remaining; r = await memory.embedPending(256));
    },
  });

  // A changed alias changes what a name means: every name-keyed cache listens to entities_changed.
  const aliases = createAliasesService({
    db,
    repo: aliasRows,
    clock,
    entities,
    audit,
    log,
    onChanged: () => events.emit('entities_changed', { change: 'alias' }),
  });

  const markdown = createMarkdownSync({
    clock,
    entities,
    memory,
    relations,
    audit,
    aliases,
    transaction: <T>(fn: () => T) => db.transaction(fn)(),
  });

  const overview = createOverviewService({ db, clock, decay: config.memory });
  const manage = createEntityManageService({
    db,
    clock,
    entities,
    audit,
    memory,
    relations,
    aliases,
    voicesRepo,
    moves,
    aliasRows,
    onChanged: () => events.emit('entities_changed', { change: 'entity' }),
    rollup: () => timeseries.rollupAll(),
  });
  const status = createStatusService({ db, vectors, rollupCache: () => rollups.cacheStats() });
  const entitiesReader = createEntitiesReader(entities);
  // Ask (#34): readings through the timeseries tier's bounded reads; facts, places, reminders through the memory answers.
  const ask = createAskService({
    clock,
    tz,
    dayParts: config.ask,
    timeseries,
    entities: entitiesReader,
    wordnet,
    embedder,
    events,
    answers: memoryAnswers({ memory, spatial, prospective, relations, entities: entitiesReader }),
  });
  const services = {
    memoryMcpImport,
    markdown,
    voices,
    aliases,
    clock,
    config,
    embedder,
    wordnet,
    llm,
    events,
    reembed,
    relations,
    context,
    schedule,
    prune,
    patterns,
    trends,
    extract: createExtractor({ llm, memory }),
    episodic,
    working,
    prospective,
    spatial,
    overview,
    status,
    manage,
    ask,
    /** Lookups only; entities are created and changed by the tier services. */
    entities: entitiesReader,
    /** The audit trail, read-only (every service writes its own entries). */
    audit: { query: (q: AuditQuery) => audit.query(q) },
    memory: without(memory, 'repo'),
    timeseries: without(timeseries, 'repo'),
  };
  attachInternals(services, {
    db,
    vectors,
    entities,
    audit,
    rollups,
    retention,
    memoryRepo: memory.repo,
    seriesRepo: timeseries.repo,
  });
  return services;
}
export type Services = ReturnType<typeof createServices>;
