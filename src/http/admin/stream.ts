/**
 * The live readings stream: committed readings arrive from the ingest writer through the event bus
 * and go to each browser over Server-Sent Events, filtered by entity and metric, batched every
 * 250 ms and capped per batch so a flood of sensors cannot flood a phone. The last readings are
 * kept in a small ring so the page shows something before the next one arrives.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PreparedReading, WriteResult } from '../../tiers/timeseries/readings.repo.js';

export interface StreamReading {
  entity_name: string;
  metric: string;
  value: unknown;
  unit: string | null;
  source: string;
  ts: number;
}
export interface StreamFilter {
  entity?: string;
  metric?: string;
}

const RING = 200;
const BATCH_MS = 250;
const MAX_PER_BATCH = 100;
const MAX_CLIENTS = 20;

const matches = (r: StreamReading, f: StreamFilter) =>
  (!f.entity || r.entity_name.toLowerCase() === f.entity.toLowerCase()) &&
  (!f.metric || r.metric.toLowerCase() === f.metric.toLowerCase());

export function createReadingStream(headers: Record<string, string>) {
  const ring: StreamReading[] = [];
  const clients = new Set<{ filter: StreamFilter; queue: StreamReading[]; dropped: number; reply: FastifyReply }>();
  const timer = setInterval(flush, BATCH_MS).unref();
  const ping = setInterval(() => clients.forEach((c) => c.reply.raw.write(': ping\n\n')), 15_000).unref();

  function flush() {
    for (const c of clients) {
      if (!c.queue.length && !c.dropped) continue;
      const out = c.queue.map((r) => `event: reading\ndata: ${JSON.stringify(r)}\n\n`).join('');
      const note = c.dropped ? `event: dropped\ndata: ${c.dropped}\n\n` : '';
      c.queue = [];
      c.dropped = 0;
      c.reply.raw.write(out + note);
    }
  }

  return {
    /** Feeds a committed ingest batch (called from the event bus). */
    push(items: PreparedReading[], results: WriteResult[]): void {
      // With nobody watching, only the batch's tail can end up in the ring.
      const from = clients.size ? 0 : Math.max(0, items.length - RING);
      for (let i = from; i < items.length; i++) {
        const it = items[i];
        const res = results[i];
        if (!res?.ok || res.skipped) continue;
        const r: StreamReading = {
          entity_name: it.entity_name,
          metric: it.metric,
          value: it.value,
          unit: it.unit ?? null,
          source: it.source,
          ts: it.ts_ms / 1000,
        };
        ring.push(r);
        if (ring.length > RING) ring.shift();
        for (const c of clients) {
          if (!matches(r, c.filter)) continue;
          if (c.queue.length < MAX_PER_BATCH) c.queue.push(r);
          else c.dropped++;
        }
      }
    },
    /** The last readings to arrive, newest first by reading time (a backfill arrives out of order). */
    recent: (f: StreamFilter, limit = 50) =>
      ring
        .filter((r) => matches(r, f))
        .slice(-limit)
        .sort((a, b) => b.ts - a.ts),
    /** Takes over the response as an SSE stream until the browser goes away. */
    open(req: FastifyRequest, reply: FastifyReply, filter: StreamFilter): void {
      if (clients.size >= MAX_CLIENTS) {
        void reply.code(503).send({
          ok: false,
          error: 'unavailable',
          message: `stream: at most ${MAX_CLIENTS} live streams at once; close another tab`,
        });
        return;
      }
      reply.hijack();
      reply.raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      reply.raw.write('retry: 3000\n\n');
      const c = { filter, queue: [] as StreamReading[], dropped: 0, reply };
      clients.add(c);
      req.raw.on('close', () => clients.delete(c));
    },
    close(): void {
      clearInterval(timer);
      clearInterval(ping);
      for (const c of clients) c.reply.raw.end();
      clients.clear();
    },
  };
}
export type ReadingStream = ReturnType<typeof createReadingStream>;
