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
