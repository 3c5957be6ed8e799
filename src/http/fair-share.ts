/**
 * Who gives up a served connection when the served ones are all taken (issue #35 items 7 and 8).
 * First come, first served let one client keep everyone else at 503: a tokenless client holding 125
 * keep-alive connections, or a runaway token holder with 200 requests in flight. Here a newcomer whose
 * request has been read (limits.ts reads each connection's first request head before serving it)
 * takes the place of:
 *   1. an idle keep-alive connection (none in flight for IDLE_MS), closed at once; else
 *   2. for a token holder, a connection without the token — those are evicted first and never
 *      keep a token holder waiting; else
 *   3. a connection of the address holding the most (the per-address share: an address gives one up
 *      to a newcomer from an address holding at least two fewer), or of the newcomer's own address
 *      (the per-connection share: the connection served the most requests gives way). A newcomer
 *      without the token takes only from connections without it.
 * Those in 2 and 3 are retired, not cut: the request in flight is answered with `Connection: close`
 * and the client reconnects, so nothing is lost; their slot counts as free at once.
 */

/** A keep-alive connection this long without a request is idle (a busy client's next request comes within milliseconds). */
export const IDLE_MS = 1000;

export interface Served {
  /** The client address (the socket's). */
  addr: string;
  /** Whether its latest request carried the valid token (always true when the hub has no token). */
  household: boolean;
  inFlight: number;
  answered: number;
  /** When its last answer went out (ms). */
  since: number;
  /** Asked to close after its request in flight: its slot is free already. */
  retiring: boolean;
}

export interface Newcomer {
  addr: string;
  household: boolean;
}

export type Room<K> = { key: K; how: 'close' | 'retire' } | undefined;

/** The connection to make room with for `n`, and how; undefined when `n` must be refused. */
export function makeRoom<K>(served: ReadonlyMap<K, Served>, n: Newcomer, now: number): Room<K> {
  const held = new Map<string, number>();
  for (const s of served.values()) if (!s.retiring) held.set(s.addr, (held.get(s.addr) ?? 0) + 1);
  const mine = held.get(n.addr) ?? 0;
  let best: { key: K; rank: number[] } | undefined;
  for (const [key, s] of served) {
    if (s.retiring) continue;
    const idle = s.inFlight === 0 && s.answered > 0 && now - s.since >= IDLE_MS;
    if (idle) return { key, how: 'close' };
    if (!n.household && s.household) continue;
    const count = held.get(s.addr) ?? 0;
    const stranger = n.household && !s.household;
    const share = s.addr === n.addr || count >= mine + 2;
    if (!stranger && !share) continue;
    // Strangers first, then the address holding most, then one between requests, then the most served.
    const rank = [stranger ? 1 : 0, count, s.inFlight === 0 ? 1 : 0, s.answered];
    if (!best || greater(rank, best.rank)) best = { key, rank };
  }
  return best && { key: best.key, how: 'retire' };
}

function greater(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}
