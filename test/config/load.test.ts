import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { tempDir } from '../helpers/hub.js';

const file = (toml: string) => {
  const p = join(tempDir(), 'config.toml');
  writeFileSync(p, toml);
  return p;
};

describe('config', () => {
  it('runs on defaults with no file', () => {
    const { config, file: f } = loadConfig({ env: {}, configPath: undefined });
    expect(f).toBeNull();
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 8900, token: '' });
    expect(config.mqtt.mode).toBe('embedded');
    expect(config.ai.provider).toBe('auto');
    expect(config.memory.trust_default_remember).toBe(5);
    expect(config.timeseries.retention_days).toBe(30);
  });

  it('reads TOML from --config, then $HEARTH_CONFIG, and lets env override it', () => {
    const p = file('data_dir = "/tmp/x"\n[http]\nport = 9000\n[ai]\nprovider = "local"\n');
    expect(loadConfig({ configPath: p, env: {} }).config.http.port).toBe(9000);
    expect(loadConfig({ env: { HEARTH_CONFIG: p } }).config.data_dir).toBe('/tmp/x');
    const { config } = loadConfig({
      configPath: p,
      env: {
        HEARTH_HTTP_PORT: '9100',
        MEMORY_EMBED_DIM: '1024',
        MEMORY_DECAY_CATEGORY_HALFLIFE: '{"insight":30}',
        RETENTION_DAYS: '7',
        HEARTH_TZ: 'Europe/Berlin',
      },
    });
    expect(config.http.port).toBe(9100);
    expect(config.ai.embed_dim).toBe(1024);
    expect(config.memory.decay_category_halflife).toEqual({ insight: 30 });
    expect(config.timeseries).toMatchObject({ retention_days: 7, timezone: 'Europe/Berlin' });
  });

  it.each([
    ['[http]\nprot = 9000\n', /http\.prot: unknown key — did you mean port\?$/],
    ['dat_dir = "x"\n', /: dat_dir: unknown key — did you mean data_dir\?$/],
    ['[ai]\nembed_modl = "x"\n', /ai\.embed_modl: unknown key — did you mean embed_model\?$/],
    [
      '[[mqtt.users]]\nusername = "a"\npassword = "b"\npublsh = ["#"]\n',
      /mqtt\.users\.0\.publsh: unknown key — did you mean publish\?$/,
    ],
    ['colour = "blue"\n', /colour: unknown key$/],
    ['[http]\nport = "abc"\n', /http\.port: /],
    ['[ai]\nprovider = "skynet"\n', /ai\.provider: /],
    ['[timeseries]\ntimezone = "Mars/Olympus"\n', /timeseries\.timezone: not an IANA time zone/],
    ['[http\nport = 1', /config file .*config\.toml: /],
  ])('stops on a bad file with one line naming the key (%#)', (toml, message) => {
    const p = file(toml);
    expect(() => loadConfig({ configPath: p, env: {} })).toThrow(message);
    try {
      loadConfig({ configPath: p, env: {} });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as Error).message).not.toContain('\n');
    }
  });

  it('names the env variable when its value has the wrong type', () => {
    expect(() => loadConfig({ env: { HEARTH_HTTP_PORT: 'eighty' } })).toThrow(/HEARTH_HTTP_PORT: expected a number/);
    expect(() => loadConfig({ env: { MEMORY_DECAY_CATEGORY_HALFLIFE: '{oops' } })).toThrow(
      /MEMORY_DECAY_CATEGORY_HALFLIFE: expected JSON/,
    );
  });

  it('names the env variable when its value is out of range or not allowed, even over a config file', () => {
    expect(() => loadConfig({ env: { HEARTH_HTTP_PORT: '-1' } })).toThrow(
      /^HEARTH_HTTP_PORT: .*\(it sets http\.port\)$/,
    );
    expect(() => loadConfig({ env: { HEARTH_TZ: 'Mars/Olympus' } })).toThrow(
      /^HEARTH_TZ: not an IANA time zone.*\(it sets timeseries\.timezone\)$/,
    );
    expect(() => loadConfig({ env: { HEARTH_LOG_LEVEL: 'loud' } })).toThrow(/^HEARTH_LOG_LEVEL: /);
    expect(() => loadConfig({ configPath: file('log_level = "info"\n'), env: { HEARTH_LOG_LEVEL: 'loud' } })).toThrow(
      /^HEARTH_LOG_LEVEL: /,
    );
    const p = file('log_level = "loud"\n');
    expect(() => loadConfig({ configPath: p, env: {} })).toThrow(`${p}: log_level: `);
  });

  it('refuses a missing explicit config file', () => {
    expect(() => loadConfig({ configPath: '/nonexistent/hearth.toml', env: {} })).toThrow(/not found/);
  });

  it('refuses a non-loopback bind without a token unless allowed', () => {
    expect(() => loadConfig({ env: { HEARTH_HTTP_HOST: '0.0.0.0' } })).toThrow(
      /http\.host: 0\.0\.0\.0 is not loopback/,
    );
    expect(loadConfig({ env: { HEARTH_HTTP_HOST: '0.0.0.0', HEARTH_API_TOKEN: 't' } }).config.http.host).toBe(
      '0.0.0.0',
    );
    expect(
      loadConfig({ env: { HEARTH_HTTP_HOST: '0.0.0.0', HEARTH_ALLOW_UNAUTHENTICATED: 'true' } }).config
        .allow_unauthenticated,
    ).toBe(true);
    expect(() => loadConfig({ env: { HEARTH_MQTT_HOST: '0.0.0.0' } })).toThrow(/mqtt\.host/);
    expect(loadConfig({ env: { HEARTH_MQTT_HOST: '0.0.0.0', HEARTH_MQTT_MODE: 'off' } }).config.mqtt.host).toBe(
      '0.0.0.0',
    );
  });
});

// Issue #35 item 15: a TOML syntax error names the file, the line and the column, and how to fix the common slip.
describe('a config file that is not valid TOML', () => {
  const load = (text: string) => {
    const file = join(tempDir(), 'config.toml');
    writeFileSync(file, text);
    try {
      loadConfig({ configPath: file, env: {} });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return { file, message: (e as Error).message };
    }
    throw new Error('loaded');
  };

  it('an unquoted string: file, line, column, the key, and the quoted form; never the value', () => {
    const { file, message } = load('[http]\nport = 8900\ntoken = s3cret-token-value\n');
    expect(message).toBe(
      `config file ${file}: line 3, column 9: invalid TOML: invalid value (the value of token); a string needs quotes: token = "…"`,
    );
    expect(message).not.toContain('s3cret');
    expect(message.split('\n')).toHaveLength(1);
    expect(load('[http]\nhost = 0.0.0.0\n').message).toMatch(
      /: line 2, column \d+: invalid TOML: .*\(the value of host\); a string needs quotes: host = "…"$/,
    );
  });

  it('other syntax errors: the line and column, no quoting advice where quotes are not the fix', () => {
    const { file, message } = load('data_dir = "/srv/hearth"\n[http\nport = 8900\n');
    expect(message).toMatch(new RegExp(`^config file ${file}: line 2, column \\d+: invalid TOML: [^\\n]+$`));
    expect(message).not.toContain('needs quotes');
    expect(load('[http]\nport = 89 00\n').message).toMatch(/: line 2, column \d+: invalid TOML: /);
  });
});
