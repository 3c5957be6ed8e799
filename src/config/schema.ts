/**
 * The one configuration schema (SPEC §1). TOML sections mirror these objects; every key has a
 * default so `npm start` works with no file. `.strict()` everywhere: an unknown key is an error,
 * not a silent typo.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { MappingsConfigSchema } from './mappings.js';
import { PatternsConfigSchema } from '../patterns/patterns.schemas.js';
import { AskConfigSchema } from './ask.js';

/** A whole number, 0 or more: a count, a size or a rate (where 0 often means no limit). */
const whole = z.number().int().min(0);
const port = whole.max(65535);
const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** One MQTT account on the embedded broker; topic filters may use + and #. */
const MqttUser = z
  .object({
    username: z.string().min(1).max(100),
    password: z.string().min(1).max(200),
    /** Topics this account may publish to (default: everything but hearth/events/#, which only Hearth publishes). */
    publish: z.array(z.string().min(1).max(200)).default(['#']),
    /** Topics this account may subscribe to. */
    subscribe: z.array(z.string().min(1).max(200)).default(['#']),
  })
  .strict();

export const ConfigSchema = z
  .object({
    data_dir: z.string().min(1).default('./data'),
    /** Writes are refused (HTTP 507, no MQTT PUBACK) while the data dir's disk has less free than this; 0 = off. */
    disk_min_free_mb: whole.default(256),
    /** Explicit opt-in to bind HTTP/MQTT on a non-loopback address without a token/credentials. */
    allow_unauthenticated: z.boolean().default(false),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** auto: human-readable on a terminal, JSON lines otherwise (journald, files). */
    log_format: z.enum(['auto', 'pretty', 'json']).default('auto'),
    http: z
      .object({
        enabled: z.boolean().default(true),
        host: z.string().min(1).default('127.0.0.1'),
        port: port.default(8900),
        token: z.string().default(''),
        body_limit: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
        /**
         * Requests per minute per client address that do not carry the valid token; 0 = no limit.
         * Excess answers 429. A request with the token is never counted (docs/http-api.md#limits).
         */
        rate_limit_per_minute: whole.default(60_000),
        /** Failed logins per minute per client address before it gets 429 for the rest of the minute; 0 = no limit. */
        auth_failures_per_minute: whole.default(30),
        /** Addresses or CIDR ranges never locked out for failed logins (fail2ban's `ignoreip`); [] = none. */
        auth_failures_ignore: z
          .array(
            z.string().refine((a) => isIP(a.split('/')[0]) !== 0 && /^[^/]+(\/\d{1,3})?$/.test(a), {
              message: 'an IP address or CIDR range (127.0.0.0/8, ::1, 192.168.1.0/24)',
            }),
          )
          .default(['127.0.0.0/8', '::1']),
        /** Whole request (headers and body) must arrive within this; then 408 and the connection closes. */
        request_timeout_ms: z.number().int().min(100).max(3_600_000).default(30_000),
        /** Headers must arrive within this (at most request_timeout_ms). */
        headers_timeout_ms: z.number().int().min(100).max(3_600_000).default(10_000),
        /** An idle keep-alive connection closes after this. */
        keep_alive_timeout_ms: z.number().int().min(100).max(3_600_000).default(5_000),
        /** Connections served at once (the last few only for /health); past them each new one gets one answer (/health, or 503 + Retry-After) and is closed. */
        max_connections: z.number().int().min(4).max(100_000).default(128),
        /** PEM files: set both to serve HTTPS. */
        tls_cert: z.string().default(''),
        tls_key: z.string().default(''),
        /** Legacy MCP SSE transport (GET /sse): open sessions at once, and idle seconds before one is closed. */
        mcp_sse_max_sessions: z.number().int().min(1).max(1000).default(32),
        mcp_sse_idle_seconds: z.number().int().min(1).default(900),
      })
      .strict()
      .prefault({}),
    mqtt: z
      .object({
        mode: z.enum(['embedded', 'external', 'off']).default('embedded'),
        host: z.string().min(1).default('127.0.0.1'),
        port: port.default(1883),
        url: z.string().default(''),
        username: z.string().default(''),
        password: z.string().default(''),
        /** More accounts with per-topic ACLs (embedded broker). */
        users: z.array(MqttUser).max(100).default([]),
        /** Messages per second per client before the broker slows it down (backpressure, nothing dropped); 0 = no limit. */
        max_msgs_per_sec: whole.default(5000),
        /** PEM files: set both to speak MQTT over TLS on the broker port. */
        tls_cert: z.string().default(''),
        tls_key: z.string().default(''),
        /** Largest MQTT packet after login (before it: 64 KiB); a larger one closes the connection. Zigbee2MQTT's bridge/devices runs to megabytes. */
        max_packet_bytes: z
          .number()
          .int()
          .min(64 * 1024)
          .max(256 * 1024 * 1024)
          .default(16 * 1024 * 1024),
        /** Connections that have not logged in yet; past it the oldest is closed. */
        max_pending_connections: z.number().int().min(1).max(10_000).default(64),
        /** Retained messages kept in memory: in all, and per account. Over a cap a message is delivered but not retained. */
        retained_max_messages: whole.default(10_000),
        retained_max_bytes: whole.default(32 * 1024 * 1024),
        retained_max_messages_per_account: whole.default(5_000),
        retained_max_bytes_per_account: whole.default(16 * 1024 * 1024),
        /** QoS 1/2 messages kept for a persistent session (clean: false) while its client is away, and bytes for all of them; past a cap newer ones are not queued for it. */
        offline_queue_max_messages: whole.default(1000),
        offline_queue_max_bytes: whole.default(32 * 1024 * 1024),
        /** Keep serving HTTP (with /health degraded) when the broker's port is taken, instead of failing start-up. */
        tolerate_port_in_use: z.boolean().default(false),
        /** Built-in topic mappings (each switchable and re-rootable) and user mappings. */
        mappings: MappingsConfigSchema,
      })
      .strict()
      .prefault({}),
    ai: z
      .object({
        provider: z.enum(['auto', 'ollama', 'openai', 'use-lite', 'local']).default('auto'),
        base_url: z.string().url().default('http://localhost:11434'),
        llm_base_url: z.string().url().optional(),
        api_key: z.string().default(''),
        embed_model: z.string().min(1).default('nomic-embed-text'),
        embed_dim: z.number().int().min(8).max(8192).default(768),
        llm_model: z.string().min(1).default('llama3.2'),
        timeout: z.number().positive().max(600).default(30),
        /** use-lite worker threads at most, each ≈ 100 MB; extras start only under load (ai/use-lite.ts). */
        embed_workers: z.number().int().min(1).max(8).default(1),
        /** Where use-lite runs: ONNX Runtime when installed (auto), only there (onnx), or TF.js WebAssembly (wasm). */
        use_lite_runtime: z.enum(['auto', 'onnx', 'wasm']).default('auto'),
      })
      .strict()
      .prefault({}),
    memory: z
      .object({
        trust_default_remember: z.number().int().min(1).max(5).default(5),
        decay_halflife_days: z.number().positive().default(90),
        decay_category_halflife: z.record(z.string(), z.number().positive()).default({}),
        location_decay_halflife_hours: z.number().positive().default(24),
      })
      .strict()
      .prefault({}),
    timeseries: z
      .object({
        retention_days: z.number().positive().default(30),
        /**
         * 0: commit on the next turn of the event loop; readings that arrive while a commit runs form
         * the next batch (group commit). > 0: right after a commit, gather this long (ms) first.
         */
        ingest_flush_ms: z.number().int().min(0).max(1000).default(0),
        timezone: z
          .string()
          .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')
          .refine(isTimeZone, 'not an IANA time zone'),
      })
      .strict()
      .prefault({}),
    patterns: PatternsConfigSchema,
    /** Ask (SPEC §5): the day parts time phrases use. */
    ask: AskConfigSchema,
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;
