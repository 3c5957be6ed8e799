/**
 * The admin UI's signing secret and its list of ended sessions, both kept in the data dir so that a
 * hub restart leaves every open page working (docs/admin-ui.md "Logging in", SECURITY.md).
 *
 * - `admin-secret`: 32 random bytes, created `0600` on first start (`wx`, so two processes starting
 *   at once agree on one). Sessions, CSRF tokens and flash messages are HMACs under keys derived
 *   from it; deleting the file logs every browser out.
 * - `admin-logged-out.json`: the ids of sessions ended by *Log out*, each until its own expiry, so a
 *   copied cookie stays dead across restarts. Bounded: past `MAX_REVOKED` live entries the secret is
 *   replaced instead (everyone logs in again) — never a list that grows without end.
 *
 * With the data dir `:memory:` (tests) or an unwritable one, both live in memory only.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenMatches } from '../auth.js';

const SECRET_FILE = 'admin-secret';
const REVOKED_FILE = 'admin-logged-out.json';
export const MAX_REVOKED = 10_000;

export interface AdminKeys {
  /** HMAC-SHA256 of `label` and `data` under the current secret, base64url. */
  mac(label: string, data: string): string;
  /** `<value>.<expires>.<mac>` for a cookie; `value` must not contain a dot (base64url, an id). */
  seal(label: string, value: string, expires: number): string;
  /** The value and expiry of a sealed string, if its mac holds and it has not expired by `now`. */
  unseal(label: string, sealed: string, now: number): { value: string; expires: number } | undefined;
  isRevoked(id: string): boolean;
  /** Ends the session `id` (valid until `expires`, epoch seconds) for good. */
  revoke(id: string, expires: number, now: number): void;
  /** Why the keys live in memory only, when they do. */
  warning?: string;
}

function readOrCreateSecret(dir: string): Buffer {
  const path = join(dir, SECRET_FILE);
  try {
    writeFileSync(path, randomBytes(32), { flag: 'wx', mode: 0o600 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  const secret = readFileSync(path);
  if (secret.length < 32) throw new Error(`${path} is shorter than 32 bytes; delete it and restart (everyone logs in again)`);
  return secret;
}

function writeAtomically(path: string, data: string | Buffer): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, path);
}

export function loadAdminKeys(dataDir: string | undefined): AdminKeys {
  let dir = dataDir && dataDir !== ':memory:' ? dataDir : undefined;
  let secret: Buffer;
  let warning: string | undefined;
  try {
    secret = dir ? readOrCreateSecret(dir) : randomBytes(32);
  } catch (e) {
    warning = `admin: sessions will not survive a restart: ${(e as Error).message}`;
    (dir = undefined), (secret = randomBytes(32));
  }
  const revoked = new Map<string, number>();
  const revokedPath = dir ? join(dir, REVOKED_FILE) : undefined;
  if (revokedPath && existsSync(revokedPath)) {
    try {
      for (const [id, exp] of JSON.parse(readFileSync(revokedPath, 'utf8')) as [string, number][]) revoked.set(String(id), Number(exp));
    } catch {
      // An unreadable list cannot say which sessions ended: end them all.
      secret = randomBytes(32);
      if (dir) writeAtomically(join(dir, SECRET_FILE), secret);
    }
  }
  const mac = (label: string, data: string) => createHmac('sha256', secret).update(`${label}\0${data}`).digest('base64url');
  return {
    warning,
    mac,
    seal: (label, value, expires) => `${value}.${expires}.${mac(label, `${value}.${expires}`)}`,
    unseal(label, sealed, now) {
      const [value, exp, given, extra] = sealed.split('.');
      if (!value || !given || extra !== undefined || !/^\d{1,12}$/.test(exp ?? '') || Number(exp) < now) return undefined;
      return tokenMatches(given, mac(label, `${value}.${exp}`)) ? { value, expires: Number(exp) } : undefined;
    },
    isRevoked: (id) => revoked.has(id),
    revoke(id, expires, now) {
      for (const [k, exp] of revoked) if (exp < now) revoked.delete(k);
      revoked.set(id, expires);
      if (revoked.size > MAX_REVOKED) {
        secret = randomBytes(32);
        revoked.clear();
        if (dir) writeAtomically(join(dir, SECRET_FILE), secret);
      }
      if (revokedPath) writeAtomically(revokedPath, JSON.stringify([...revoked]));
    },
  };
}
