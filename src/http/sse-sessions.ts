/**
 * Live sessions of the legacy MCP SSE transport (`GET /sse` + `POST /messages?sessionId=`),
 * bounded in number and idle time so forgotten clients cannot pile up streams. Each session is
 * one SDK `SSEServerTransport` plus the MCP server connected to it.
 */
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

export interface SseSession {
  transport: SSEServerTransport;
  close(): Promise<void>;
  lastActive: number;
}

export interface SseLimits {
  /** Open streams at once; one more answers 503 (default 32). */
  maxSessions?: number;
  /** A session with no message for this long is closed (default 15 min). */
  idleMs?: number;
}

export function createSseSessions(limits: SseLimits = {}) {
  const maxSessions = limits.maxSessions ?? 32;
  const idleMs = limits.idleMs ?? 15 * 60_000;
  const sessions = new Map<string, SseSession>();
  let sweeper: NodeJS.Timeout | undefined;

  const sweep = () => {
    const now = Date.now();
    for (const [id, s] of sessions) if (now - s.lastActive >= idleMs) void drop(id);
    if (!sessions.size && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  async function drop(id: string): Promise<void> {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    await s.close().catch(() => undefined);
  }

  return {
    maxSessions,
    idleMs,
    get size() {
      return sessions.size;
    },
    full: () => sessions.size >= maxSessions,
    has: (id: string | undefined) => id !== undefined && sessions.has(id),
    add(id: string, session: Omit<SseSession, 'lastActive'>): void {
      sessions.set(id, { ...session, lastActive: Date.now() });
      // Checked a few times per idle period; unref'd so it never holds the process open.
      sweeper ??= setInterval(sweep, Math.max(50, Math.min(idleMs / 4, 60_000)));
      sweeper.unref();
    },
    /** The session for a message, marking it active. */
    touch(id: string): SseSession | undefined {
      const s = sessions.get(id);
      if (s) s.lastActive = Date.now();
      return s;
    },
    drop,
    async closeAll(): Promise<void> {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      await Promise.all([...sessions.keys()].map(drop));
    },
  };
}
export type SseSessions = ReturnType<typeof createSseSessions>;
