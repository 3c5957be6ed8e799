/**
 * Wires config → database → AI providers → services → doors, and starts/stops each door in its
 * own try/catch so one failing extension is reported by name (z2m lib/controller.ts).
 */
import { LISTEN_BACKLOG } from './http/limits.js';
import type { FastifyInstance } from 'fastify';
import { aiConfigOf, createAi, type StoredEmbedder } from './ai/providers.js';
import type { Embedder, Llm } from './ai/types.js';
import type { Config } from './config/schema.js';
import { openDatabase, type Db } from './db/open.js';
import { createIntegrity, type Integrity } from './db/integrity.js';
import { createDiskGuard, guardWrites } from './db/disk-guard.js';
import { storedEmbedder } from './db/vectors.js';
import { join } from 'node:path';
import { systemClock, type Clock } from './lib/clock.js';
import { HubError, isHubError } from './lib/errors.js';
import { createServices, type Services } from './services.js';
import { internals } from './internals.js';
import type { MqttDoor } from './mqtt/index.js';
import { createScheduler, type Scheduler } from './scheduler.js';
import { BUILTIN_DETECTORS } from '../detectors/index.js';
import { rateLimited } from './lib/log.js';
import { weakToken } from './lib/token.js';
import { type Door, doorsHealth, startDoors, stopDoors } from './lib/door.js';

export interface HubOptions {
  config: Config;
  clock?: Clock;
  /** Injected providers (tests); otherwise built from config.ai. */
  ai?: { embedder: Embedder; llm: Llm | null };
  logger?: boolean | object;
  /** Run background jobs (default true; tests drive jobs by hand). */
  scheduler?: boolean;
  /** Hold the data dir to itself (exclusive lock, as restore does): `hearth import`. */
  exclusive?: boolean;
  /**
   * `hearth mcp`, which an MCP client starts afresh each time and waits for: the embedder the data dir
   * records is used without probing Ollama and loaded lazily (`warm()`), and no HTTP app is built
   * (nor its modules loaded) — MCP stdio is the only door (`start()` opens it). `hub.app` is then undefined.
   */
  quickStart?: boolean;
  /** Quick start: the MCP client closed stdio (the door's transport ended by itself, not by `stop()`). */
  onStdioClosed?: () => void;
}

export interface Hub {
  services: Services;
  app: FastifyInstance;
  db: Db;
  warnings: string[];
  /** Start-up facts worth a line at info (which embedder `auto` chose and why). */
  notes: string[];
  mqtt: MqttDoor | null;
  scheduler: Scheduler | null;
  /** Database integrity (quick check at serve start, damage met by requests); feeds /health. */
  integrity: Integrity;
  /** Quick start: begin loading the embedder now (after the client's `initialize`). */
  warm(): void;
  /** Starts the doors (lib/door.ts); resolves with the bound addresses. */
  start(): Promise<{ http?: string; mqtt?: string }>;
  stop(): Promise<void>;
}

export async function createHub(opts: HubOptions): Promise<Hub> {
  const { config } = opts;
  let mqttError: string | undefined;
  const clock = opts.clock ?? systemClock;
  const db = openDatabase({ dataDir: config.data_dir, lock: opts.exclusive ? 'exclusive' : 'shared' });
  const disk = createDiskGuard(config.data_dir, config.disk_min_free_mb);
  const writes = guardWrites(db, disk);
  const integrity = createIntegrity(config.data_dir === ':memory:' ? ':memory:' : join(config.data_dir, 'hearth.db'));
  // Until the HTTP app (and its logger) exists, log to stderr.
  let logTo = (msg: string) => console.error(msg);
  const log = (msg: string) => logTo(msg);
  const warnings: string[] = [];
  const notes: string[] = [];
  let ai: { embedder: Embedder; llm: Llm | null; warm?: () => void };
  if (opts.ai) ai = opts.ai;
  else {
    const stored = opts.quickStart ? (storedEmbedder(db) as StoredEmbedder | undefined) : undefined;
    const built = await createAi(aiConfigOf(config.ai), undefined, opts.quickStart ? { stored } : undefined);
    warnings.push(...built.warnings);
    notes.push(...(built.notes ?? []));
    ai = built;
  }
  const services = createServices({
    db,
    clock,
    config,
    embedder: ai.embedder,
    llm: ai.llm,
    detectors: BUILTIN_DETECTORS,
    log,
  });
  await services.patterns.load();
  const { vectors } = internals(services);
  if (vectors.state === 'stale') warnings.push(vectors.staleReason());
  writes.arm();
  const weak = weakToken(config.http.token);
  if (weak && config.http.enabled) warnings.push(weak);
  const hub: Hub = {
    services,
    app: undefined as unknown as FastifyInstance,
    db,
    warnings,
    notes,
    mqtt: null,
    scheduler: null,
    integrity,
    warm: () => ai.warm?.(),
    async start() {
      const at = await startDoors(doors);
      return { http: at.http, mqtt: at.mqtt };
    },
    async stop() {
      await stopDoors(doors, log);
      for (const [name, close] of [
        ['ingest', () => services.timeseries.writer.close()],
        ['patterns', () => services.patterns.close()],
        ['memory', () => services.memory.flushTouches()],
        ['integrity', () => integrity.stop()],
        // An injected embedder is the caller's to close.
        ['embedder', () => (opts.ai ? undefined : ai.embedder.close?.())],
      ] as const) {
        try {
          await close();
        } catch (e) {
          log(`${name}: close failed: ${(e as Error).message}`);
        }
      }
      try {
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
      } catch (e) {
        log(`db: close failed: ${(e as Error).message}`);
      }
    },
  };
  /**
   * The doors, started in this order and stopped in reverse (lib/door.ts); /health merges their parts.
   * MQTT opens before HTTP, so once /health answers (a readiness probe, a test, systemd's notify) the
   * broker takes publishes too; on the way down HTTP closes first.
   */
  let stdio: { close(): Promise<void> } | undefined;
  const stdioDoor: Door = {
    name: 'mcp-stdio',
    async start() {
      // Loaded here: hearth serve never needs it.
      const { startMcpStdio } = await import('./mcp/stdio.js');
      stdio = await startMcpStdio(services, { initialized: () => ai.warm?.(), closed: () => opts.onStdioClosed?.() });
      return 'stdio';
    },
    stop: async () => stdio?.close(),
  };
  const serveDoors: Door[] = [
    {
      name: 'mqtt',
      async start() {
        // Loaded here (not at the top: hearth mcp never needs it).
        const { startMqtt } = await import('./mqtt/index.js');
        try {
          hub.mqtt = await startMqtt(config, services, log);
        } catch (e) {
          // A hub without its broker must not look healthy: fail start-up (one line), or, when told
          // to tolerate a taken port, serve with /health degraded.
          if (!(config.mqtt.tolerate_port_in_use && isHubError(e) && e.code === 'conflict')) throw e;
          mqttError = e.message;
          log(`${e.message}; serving without MQTT (mqtt.tolerate_port_in_use), /health says degraded`);
        }
        return hub.mqtt?.url;
      },
      stop: async () => hub.mqtt?.stop(),
      health: () => ({
        ...(mqttError && { status: 'degraded' }),
        mqtt: hub.mqtt
          ? {
              mode: hub.mqtt.mode,
              url: hub.mqtt.url,
              connected: hub.mqtt.connected(),
              bridge: hub.mqtt.bridge.stats,
              offline_queue: hub.mqtt.offlineQueue(),
              throttled: hub.mqtt.throttled(),
            }
          : { mode: mqttError ? config.mqtt.mode : 'off', ...(mqttError && { error: mqttError }) },
      }),
    },
    {
      name: 'http',
      async start() {
        if (!config.http.enabled) return undefined;
        await hub.app
          .listen({ host: config.http.host, port: config.http.port, backlog: LISTEN_BACKLOG })
          .catch((e: NodeJS.ErrnoException) => {
            if (e.code !== 'EADDRINUSE') throw e;
            throw new HubError(
              'conflict',
              `http: port ${config.http.port} on ${config.http.host} is already in use (another hearth serve?): stop it, or set http.port (HEARTH_HTTP_PORT)`,
            );
          });
        // The address actually bound (0.0.0.0 stays 0.0.0.0), not the first one Fastify prints.
        const a = hub.app.server.address() as { address: string; port: number };
        return `${config.http.tls_cert ? 'https' : 'http'}://${a.address.includes(':') ? `[${a.address}]` : a.address}:${a.port}`;
      },
      stop: async () => void (await hub.app?.close()),
    },
    {
      name: 'scheduler',
      async start() {
        if (opts.scheduler === false) return undefined;
        hub.scheduler = createScheduler(services, log);
        // A model switch: rebuild the vectors in the background; recall answers by keyword meanwhile.
        if (vectors.state === 'stale') void services.reembed.run();
        return undefined;
      },
      stop: async () => hub.scheduler?.stop(),
    },
  ];
  // `hearth mcp` (quick start): stdio is the only door.
  const doors = opts.quickStart ? [stdioDoor] : serveDoors;
  if (opts.quickStart) {
    logTo = rateLimited((msg: string) => console.error(msg));
    return hub;
  }
  // Imported here, not at the top, so that a quick start (hearth mcp) never loads Fastify and the routes.
  const { buildApp } = await import('./http/app.js');
  hub.app = await buildApp({
    services,
    token: config.http.token || undefined,
    host: config.http.host,
    dataDir: config.data_dir,
    bodyLimit: config.http.body_limit,
    rateLimitPerMinute: config.http.rate_limit_per_minute,
    authFailuresPerMinute: config.http.auth_failures_per_minute,
    authFailuresIgnore: config.http.auth_failures_ignore,
    limits: {
      requestTimeoutMs: config.http.request_timeout_ms,
      headersTimeoutMs: config.http.headers_timeout_ms,
      keepAliveTimeoutMs: config.http.keep_alive_timeout_ms,
      maxConnections: config.http.max_connections,
    },
    sse: { maxSessions: config.http.mcp_sse_max_sessions, idleMs: config.http.mcp_sse_idle_seconds * 1000 },
    tls: config.http.tls_cert ? { cert: config.http.tls_cert, key: config.http.tls_key } : undefined,
    logger: opts.logger ?? false,
    health: () => ({
      ...doorsHealth(doors),
      ingest: services.timeseries.writer.stats,
      ...disk.health(),
      ...integrity.health(),
    }),
  });
  logTo = rateLimited((msg: string) => hub.app.log.warn(msg));
  return hub;
}
