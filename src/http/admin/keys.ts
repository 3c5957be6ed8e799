/**
 * The admin UI's keys and its list of ended logins, kept in the data dir so that a hub restart
 * leaves every open page working (docs/admin-ui.md "Logging in", SECURITY.md "Admin sessions").
 * Cookies themselves are sealed by @fastify/secure-session (session.ts); this file holds only what
 * that plugin does not do.
 *
 * - `admin-secret`: 32 random bytes, created `0600` on first start (`wx`, so two processes starting
 *   at once agree on one). The session key is derived from it *and the API token*, so a new token
 *   (or a first one on a hub that had none) opens no cookie made before; deleting the file logs every
 *   browser out.
 * - `admin-logged-out.json`: the ids of sessions ended by *Log out*, each until its own expiry, so a
 *   copied cookie stays dead across restarts. Bounded: past `MAX_REVOKED` live entries, or when the
 *   file cannot be read, every session issued until then is ended instead (`before`): never a list
 *   that grows without end.
 *
 * With the data dir `:memory:` (tests) or an unwritable one, both live in memory only.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET_FILE = 'admin-secret';
const REVOKED_FILE = 'admin-logged-out.json';
export const MAX_REVOKED = 10_000;

export interface AdminKeys {
  /** secure-session's 32-byte key for the login cookie: bound to the secret and the token. */
  session: Buffer;
  /** …and for the one-minute flash cookie. */
  flash: Buffer;
  /** Whether the session `sid`, issued at `iat` (epoch seconds), was ended. */
  isEnded(sid: string | undefined, iat: number): boolean;
  /** Ends the session `sid` (valid until `expires`, epoch seconds) for good. */
  end(sid: string, expires: number, now: number): void;
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
  if (secret.length < 32)
    throw new Error(`${path} is shorter than 32 bytes; delete it and restart (everyone logs in again)`);
  return secret;
}

function writeAtomically(path: string, data: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, data, { mode: 0o600 });
  renameSync(temp, path);
}

export function loadAdminKeys(dataDir: string | undefined, token: string | undefined, now: () => number): AdminKeys {
  let dir = dataDir && dataDir !== ':memory:' ? dataDir : undefined;
  let secret: Buffer;
  let warning: string | undefined;
  try {
    secret = dir ? readOrCreateSecret(dir) : randomBytes(32);
  } catch (e) {
    warning = `admin: sessions will not survive a restart: ${(e as Error).message}`;
    (dir = undefined), (secret = randomBytes(32));
  }
  const path = dir ? join(dir, REVOKED_FILE) : undefined;
  const revoked = new Map<string, number>();
  let before = 0; // sessions issued before this (epoch seconds) are all ended
  if (path && existsSync(path)) {
    try {
      const saved = JSON.parse(readFileSync(path, 'utf8')) as { before?: number; ended?: [string, number][] };
      before = Number(saved.before ?? 0);
      for (const [id, exp] of saved.ended ?? []) revoked.set(String(id), Number(exp));
    } catch {
      before = now(); // an unreadable list cannot say which sessions ended: end them all
    }
  }
  const save = () => path && writeAtomically(path, JSON.stringify({ before, ended: [...revoked] }));
  // A NUL keeps `token` from running into the label; '' (no token) is a credential of its own.
  const derive = (label: string) =>
    createHmac('sha256', secret)
      .update(`${label}\0${token ?? ''}`)
      .digest();
  return {
    warning,
    session: derive('admin-session'),
    flash: createHmac('sha256', secret).update('admin-flash').digest(),
    isEnded: (sid, iat) => !(iat >= before) || (sid !== undefined && revoked.has(sid)),
    end(sid, expires, t) {
      for (const [k, exp] of revoked) if (exp < t) revoked.delete(k);
      revoked.set(sid, expires);
      if (revoked.size > MAX_REVOKED) (before = t), revoked.clear();
      save();
    },
  };
}
