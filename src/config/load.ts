/**
 * Finds, reads and validates the configuration: TOML file (`--config`, `$HEARTH_CONFIG`,
 * `./config.toml`, `/etc/hearth/config.toml`, first found), then environment overrides (the seed's
 * `MEMORY_*` names kept). Any problem is one `ConfigError` line naming the key. `data_dir` is made
 * absolute the same way for every command (src/config/data-dir.ts).
 */
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { ConfigSchema, type Config } from './schema.js';
import { resolveDataDir } from './data-dir.js';
import { closestFields } from '../lib/suggest.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;
type Conv = (raw: string, name: string) => unknown;

const str: Conv = (v) => v;
const num: Conv = (v, name) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new ConfigError(`${name}: expected a number, got "${v}"`);
  return n;
};
const bool: Conv = (v, name) => {
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new ConfigError(`${name}: expected true or false, got "${v}"`);
};
const json: Conv = (v, name) => {
  try {
    return JSON.parse(v);
  } catch {
    throw new ConfigError(`${name}: expected JSON, got "${v}"`);
  }
};

/** env name → [config path, converter]. */
export const ENV_MAP: Record<string, [string, Conv]> = {
  HEARTH_DATA_DIR: ['data_dir', str],
  HEARTH_ALLOW_UNAUTHENTICATED: ['allow_unauthenticated', bool],
  HEARTH_LOG_LEVEL: ['log_level', str],
  HEARTH_LOG_FORMAT: ['log_format', str],
  HEARTH_HTTP_HOST: ['http.host', str],
  HEARTH_HTTP_PORT: ['http.port', num],
  HEARTH_API_TOKEN: ['http.token', str],
  HEARTH_BODY_LIMIT: ['http.body_limit', num],
  HEARTH_RATE_LIMIT_PER_MINUTE: ['http.rate_limit_per_minute', num],
  HEARTH_TLS_CERT: ['http.tls_cert', str],
  HEARTH_TLS_KEY: ['http.tls_key', str],
  HEARTH_MQTT_MODE: ['mqtt.mode', str],
  HEARTH_MQTT_HOST: ['mqtt.host', str],
  HEARTH_MQTT_PORT: ['mqtt.port', num],
  HEARTH_MQTT_URL: ['mqtt.url', str],
  HEARTH_MQTT_USERNAME: ['mqtt.username', str],
  HEARTH_MQTT_PASSWORD: ['mqtt.password', str],
  HEARTH_MQTT_MAX_MSGS_PER_SEC: ['mqtt.max_msgs_per_sec', num],
  HEARTH_MQTT_TLS_CERT: ['mqtt.tls_cert', str],
  HEARTH_MQTT_TLS_KEY: ['mqtt.tls_key', str],
  MEMORY_AI_PROVIDER: ['ai.provider', str],
  MEMORY_AI_BASE_URL: ['ai.base_url', str],
  MEMORY_LLM_BASE_URL: ['ai.llm_base_url', str],
  MEMORY_AI_API_KEY: ['ai.api_key', str],
  MEMORY_EMBED_MODEL: ['ai.embed_model', str],
  MEMORY_EMBED_DIM: ['ai.embed_dim', num],
  MEMORY_LLM_MODEL: ['ai.llm_model', str],
  MEMORY_AI_TIMEOUT: ['ai.timeout', num],
  HEARTH_EMBED_WORKERS: ['ai.embed_workers', num],
  HEARTH_USE_LITE_RUNTIME: ['ai.use_lite_runtime', str],
  MEMORY_TRUST_DEFAULT_REMEMBER: ['memory.trust_default_remember', num],
  MEMORY_DECAY_HALFLIFE_DAYS: ['memory.decay_halflife_days', num],
  MEMORY_DECAY_CATEGORY_HALFLIFE: ['memory.decay_category_halflife', json],
  MEMORY_LOCATION_DECAY_HALFLIFE_HOURS: ['memory.location_decay_halflife_hours', num],
  RETENTION_DAYS: ['timeseries.retention_days', num],
  HEARTH_INGEST_FLUSH_MS: ['timeseries.ingest_flush_ms', num],
  HEARTH_TZ: ['timeseries.timezone', str],
};

/** The config file to read, or null to run on defaults. An explicit path that does not exist is an error. */
export function findConfigFile(explicit: string | undefined, env: Env): string | null {
  const named = explicit ?? env.HEARTH_CONFIG;
  if (named) {
    if (!existsSync(named)) throw new ConfigError(`config file ${named}: not found`);
    return named;
  }
  for (const candidate of ['./config.toml', '/etc/hearth/config.toml']) if (existsSync(candidate)) return candidate;
  return null;
}

/**
 * The config file, parsed; a syntax error is one line naming the file, the line and column and the
 * key on that line — never the value, which may be a token or a password.
 */
function readToml(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`config file ${file}: ${(e as Error).message.split('\n')[0]}`);
  }
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (e) {
    const { line, column, message } = e as Error & { line?: number; column?: number };
    // smol-toml: "Invalid TOML document: invalid value\n\n<code block>" → "invalid value"
    const why = message.split('\n')[0].replace(/^Invalid TOML document: /, '');
    if (!line) throw new ConfigError(`config file ${file}: invalid TOML: ${why}`);
    const [, key, value] = /^\s*([\w.\-"' ]+?)\s*=\s*(.*)$/.exec(text.split(/\r?\n/)[line - 1] ?? '') ?? [];
    // A bare word where a string belongs (host = 0.0.0.0, mode = off) is the common slip: say how to write it.
    const bare =
      value &&
      !/^["'[{]/.test(value) &&
      !/^([+-]?[\d_]+(\.[\d_]+)?([eE][+-]?\d+)?|true|false|[+-]?inf|[+-]?nan|0x[\da-fA-F_]+|\d{4}-\d\d-\d\d\S*)\s*(#.*)?$/.test(
        value,
      );
    throw new ConfigError(
      `config file ${file}: line ${line}, column ${column}: invalid TOML: ${why}${key ? ` (the value of ${key})` : ''}${bare ? `; a string needs quotes: ${key} = "…"` : ''}`,
    );
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}

/**
 * Validates a raw object (TOML + env merged) into a Config, or throws one line naming the key: the
 * environment variable that set it when one did (`fromEnv`: config path → variable name).
 */
export function parseConfig(raw: unknown, origin = 'config', fromEnv: ReadonlyMap<string, string> = new Map()): Config {
  const result = ConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const base = issue.path.join('.');
  const key = issue.code === 'unrecognized_keys' ? [base, ...issue.keys].filter(Boolean).join('.') : base || '(root)';
  const near =
    issue.code === 'unrecognized_keys'
      ? closestFields(String(issue.keys[0]), keysAt(ConfigSchema, issue.path))[0]
      : undefined;
  const message =
    issue.code === 'unrecognized_keys' ? `unknown key${near ? ` — did you mean ${near}?` : ''}` : issue.message;
  const variable = fromEnv.get(key);
  if (variable) throw new ConfigError(`${variable}: ${message} (it sets ${key})`);
  throw new ConfigError(`${origin}: ${key}: ${message}`);
}

/** The keys the config object at `path` (a section, an array's element) declares, for "did you mean". */
function keysAt(schema: unknown, path: readonly PropertyKey[]): string[] {
  type Node = { shape?: Record<string, unknown>; _zod?: { def?: { innerType?: Node; in?: Node; element?: Node } } };
  const unwrap = (n: Node | undefined) => {
    // default / optional / pipe wrappers around the object, and an array's element
    while (n && !n.shape && n._zod?.def) n = n._zod.def.innerType ?? n._zod.def.in ?? n._zod.def.element;
    return n;
  };
  let node = unwrap(schema as Node);
  for (const p of path) node = typeof p === 'number' ? node : unwrap(node?.shape?.[String(p)] as Node | undefined);
  return Object.keys(node?.shape ?? {});
}

export interface LoadOptions {
  configPath?: string;
  env?: Env;
  /** Extra values applied last (tests). */
  overrides?: Record<string, unknown>;
  /** Command-line settings (`serve --port 9000`): each as its variable would be, after the environment; errors name the flag. */
  settings?: { name: string; env: string; value: string }[];
}

export function loadConfig(opts: LoadOptions = {}): { config: Config; file: string | null } {
  const env = opts.env ?? process.env;
  const file = findConfigFile(opts.configPath, env);
  let raw: Record<string, unknown> = {};
  if (file) raw = readToml(file);
  const fileDataDir = typeof raw.data_dir === 'string' && file ? { value: raw.data_dir, path: file } : undefined;
  const fromEnv = new Map<string, string>();
  for (const [name, [path, conv]] of Object.entries(ENV_MAP)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    setPath(raw, path, conv(value, name));
    fromEnv.set(path, name);
  }
  let flagDataDir: string | undefined;
  for (const { name, env: variable, value } of opts.settings ?? []) {
    const [path, conv] = ENV_MAP[variable];
    setPath(raw, path, conv(value, name));
    fromEnv.set(path, name);
    if (path === 'data_dir') flagDataDir = value;
  }
  for (const [path, value] of Object.entries(opts.overrides ?? {})) {
    setPath(raw, path, value);
    fromEnv.delete(path);
  }
  const config = parseConfig(raw, file ?? 'config', fromEnv);
  const envDataDir =
    (opts.overrides?.data_dir as string | undefined) ?? flagDataDir ?? (env.HEARTH_DATA_DIR || undefined);
  config.data_dir = resolveDataDir({
    env: envDataDir,
    file: fileDataDir,
    xdgDataHome: env.XDG_DATA_HOME ?? '',
    home: env.HOME,
  });
  assertSafeBinds(config);
  assertTlsFiles(config);
  return { config, file };
}

export const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127\./.test(host);

/** TLS needs both files, readable. */
function assertTlsFiles(config: Config): void {
  for (const section of ['http', 'mqtt'] as const) {
    const { tls_cert: cert, tls_key: key } = config[section];
    if (!cert && !key) continue;
    if (!cert || !key)
      throw new ConfigError(`${section}.${cert ? 'tls_key' : 'tls_cert'}: set both tls_cert and tls_key, or neither`);
    for (const [name, file] of [
      ['tls_cert', cert],
      ['tls_key', key],
    ] as const) {
      try {
        accessSync(file, constants.R_OK);
      } catch {
        throw new ConfigError(`${section}.${name}: cannot read ${file}`);
      }
    }
  }
}

/** SPEC §1: a non-loopback bind without a token/credentials refuses to start unless explicitly allowed. */
export function assertSafeBinds(config: Config): void {
  if (config.allow_unauthenticated) return;
  if (config.http.enabled && !isLoopback(config.http.host) && !config.http.token) {
    throw new ConfigError(
      `http.host: ${config.http.host} is not loopback and http.token (HEARTH_API_TOKEN) is empty; set a token or allow_unauthenticated = true`,
    );
  }
  const mqttCredentials = (config.mqtt.username && config.mqtt.password) || config.mqtt.users.length > 0;
  if (config.mqtt.mode === 'embedded' && !isLoopback(config.mqtt.host) && !mqttCredentials) {
    throw new ConfigError(
      `mqtt.host: ${config.mqtt.host} is not loopback and no mqtt.username/mqtt.password or [[mqtt.users]] are set; set credentials or allow_unauthenticated = true`,
    );
  }
}
