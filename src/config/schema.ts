/**
 * The one configuration schema (SPEC §1). TOML sections mirror these objects; every key has a
 * default so `npm start` works with no file. `.strict()` everywhere: an unknown key is an error,
 * not a silent typo.
 */
import { z } from 'zod';
import { MappingsConfigSchema } from '../mqtt/mappings/index.js';
import { PatternsConfigSchema } from '../patterns/patterns.schemas.js';

const port = z.number().int().min(0).max(65535);
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
    /** Explicit opt-in to bind HTTP/MQTT on a non-loopback address without a token/credentials. */
    allow_unauthenticated: z.boolean().default(false),
    log_level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    http: z
      .object({
        enabled: z.boolean().default(true),
        host: z.string().min(1).default('127.0.0.1'),
        port: port.default(8900),
        token: z.string().default(''),
        body_limit: z.number().int().min(1024).max(64 * 1024 * 1024).default(1024 * 1024),
        /** Requests per minute per client address; 0 = no limit. Excess answers 429. */
        rate_limit_per_minute: z.number().int().min(0).default(6000),
        /** PEM files: set both to serve HTTPS. */
        tls_cert: z.string().default(''),
        tls_key: z.string().default(''),
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
        max_msgs_per_sec: z.number().int().min(0).default(5000),
        /** PEM files: set both to speak MQTT over TLS on the broker port. */
        tls_cert: z.string().default(''),
        tls_key: z.string().default(''),
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
        /** How long the ingest writer gathers readings into one transaction (ms). */
        ingest_flush_ms: z.number().int().min(0).max(1000).default(2),
        timezone: z
          .string()
          .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC')
          .refine(isTimeZone, 'not an IANA time zone'),
      })
      .strict()
      .prefault({}),
    patterns: PatternsConfigSchema,
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;
