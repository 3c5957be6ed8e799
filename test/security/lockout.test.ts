/**
 * Issue #35 item 9: the failed-login lockout must not lock the household's own clients out. On a Pi,
 * Home Assistant, Node-RED and the CLI share 127.0.0.1: after 16 requests without a token and 16 with
 * a wrong one from there, the right token got 429 for ten minutes. A request with no credential is
 * not a guess; loopback is exempt by default (`http.auth_failures_ignore`, as fail2ban's `ignoreip`),
 * unless the request came through a reverse proxy; another address is still locked out. A token short
 * enough to guess is warned about at start.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config/load.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';

const TOKEN = 'lockout-test-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };
let hub: TestHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
});

async function start(http: NonNullable<ConfigInput['http']> = {}) {
  hub = await buildTestHub({ config: { http: { token: TOKEN, ...http } } });
  return hub;
}
const from = (remoteAddress: string, headers: Record<string, string> = {}, url = '/entities') =>
  hub!.app.inject({ url, remoteAddress, headers });

/** The sequence: 16 requests without a token, then 16 with a wrong one. */
async function misconfiguredFlow(address: string, extra: Record<string, string> = {}) {
  for (let i = 0; i < 16; i++) await from(address, extra);
  for (let i = 0; i < 16; i++) await from(address, { ...extra, authorization: `Bearer wrong-${i}` });
}

describe('the failed-login lockout and the household (issue #35 item 9)', () => {
  it('never locks loopback out: the right token from 127.0.0.1 and ::1 is let in after a misconfigured flow', async () => {
    await start();
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      await misconfiguredFlow(address);
      expect((await from(address, auth)).statusCode, address).toBe(200);
      expect((await from(address, { authorization: 'Bearer still-wrong' })).statusCode, address).toBe(401);
    }
  });

  it('still locks out another address, the right token included, and a proxied request from loopback', async () => {
    await start();
    await misconfiguredFlow('192.168.1.50');
    const right = await from('192.168.1.50', auth);
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    // Through a reverse proxy on the same host: the internet is not loopback.
    const proxied = { 'x-forwarded-for': '203.0.113.9' };
    await misconfiguredFlow('127.0.0.1', proxied);
    expect((await from('127.0.0.1', { ...proxied, ...auth })).statusCode).toBe(429);
  });

  it('does not count requests without a credential: none, a blank bearer, Basic with an empty password, an empty login form', async () => {
    await start({ auth_failures_per_minute: 3 });
    const ip = '192.168.1.51';
    const blankBasic = `Basic ${Buffer.from('homeassistant:').toString('base64')}`;
    for (let i = 0; i < 10; i++) {
      expect((await from(ip)).statusCode).toBe(401);
      expect((await from(ip, { authorization: 'Bearer  ' })).statusCode).toBe(401);
      expect((await from(ip, { authorization: blankBasic })).statusCode).toBe(401);
      const login = await hub!.app.inject({
        method: 'POST',
        url: '/admin/login',
        remoteAddress: ip,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'token=&next=%2Fadmin%2F',
      });
      expect(login.statusCode).toBe(401);
    }
    expect((await from(ip, auth)).statusCode).toBe(200);
  });

  it('locks loopback out too when told to (auth_failures_ignore = [])', async () => {
    await start({ auth_failures_ignore: [] });
    await misconfiguredFlow('127.0.0.1');
    expect((await from('127.0.0.1', auth)).statusCode).toBe(429);
    // …and exempts a LAN range when told to.
    await hub!.close();
    await start({ auth_failures_ignore: ['192.168.1.0/24'] });
    await misconfiguredFlow('192.168.1.77');
    expect((await from('192.168.1.77', auth)).statusCode).toBe(200);
    await misconfiguredFlow('127.0.0.1');
    expect((await from('127.0.0.1', auth)).statusCode).toBe(429);
  });

  it('refuses an entry that is no address or range, naming the key', () => {
    expect(() => parseConfig({ http: { auth_failures_ignore: ['localhost'] } })).toThrow(ConfigError);
    expect(() => parseConfig({ http: { auth_failures_ignore: ['localhost'] } })).toThrow(/auth_failures_ignore/);
    expect(parseConfig({}).http.auth_failures_ignore).toEqual(['127.0.0.0/8', '::1']);
  });

  it('warns at start when the token is short enough to guess, and not when it is long and random', async () => {
    await start({ token: 'hunter2' });
    expect(hub!.warnings.join('\n')).toMatch(/http\.token is 7 characters, short enough to guess.*openssl rand/);
    await hub!.close();
    await start({ token: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' });
    expect(hub!.warnings.join('\n')).toMatch(/fewer than 8 distinct characters/);
    await hub!.close();
    await start();
    expect(hub!.warnings.join('\n')).not.toMatch(/http\.token/);
  });
});
