/**
 * Secret comparison shared by the doors that check a token or password (HTTP bearer auth, the admin
 * login, MQTT accounts): constant time, whatever the lengths.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison; hashing first makes the lengths equal so length doesn't leak either. */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

/** Fewer characters than this and a token can be guessed (20 random base64 characters are ~120 bits). */
export const MIN_TOKEN_CHARS = 20;

/**
 * Why `token` is easy to guess, for a warning at start (issue #35 item 9), or undefined: short, or
 * few distinct characters (a word, `aaaa…`, `1234…`).
 */
export function weakToken(token: string): string | undefined {
  if (!token) return undefined;
  const fix = 'set a long random one (`openssl rand -hex 32`) in http.token / HEARTH_API_TOKEN';
  if (token.length < MIN_TOKEN_CHARS) return `http.token is ${token.length} characters, short enough to guess; ${fix}`;
  if (new Set(token).size < 8) return `http.token has fewer than 8 distinct characters, easy to guess; ${fix}`;
  return undefined;
}
