/**
 * Quiet, useful logs for a hub that runs for years on an SD card:
 * - one line per HTTP request at most, and none at info for the routes sensors and monitors hit
 *   all day (ingest successes, /health, /metrics: debug);
 * - JSON lines for journald and files, a short human line on a terminal (`log_format = "auto"`);
 * - the same warning repeated (a failing job every 10 s, a client sending bad requests) is written
 *   once per minute with a count of what was held back.
 * Fastify builds the pino logger from `loggerOptions()`; `src/http/request-log.ts` replaces Fastify's
 * two request lines with one.
 */
export type LogFormat = 'auto' | 'pretty' | 'json';

interface Sink {
  write(s: string): unknown;
  isTTY?: boolean;
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const OWN_KEYS = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'reqId']);

/** A pino destination that turns each JSON line into `HH:MM:SS.mmm LEVEL message key=value`. */
export function prettySink(out: Sink): Sink {
  return {
    write(line: string) {
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line) as Record<string, unknown>;
      } catch {
        return out.write(line);
      }
      const t = new Date(Number(o.time) || Date.now());
      const hms = `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}:${String(t.getSeconds()).padStart(2, '0')}.${String(t.getMilliseconds()).padStart(3, '0')}`;
      let extra = '';
      for (const [k, v] of Object.entries(o)) {
        if (OWN_KEYS.has(k)) continue;
        if (k === 'err' && v && typeof v === 'object')
          extra += `\n  ${(v as { stack?: string; message?: string }).stack ?? (v as { message?: string }).message}`;
        else extra += ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
      }
      return out.write(
        `${hms} ${(LEVELS[Number(o.level)] ?? String(o.level)).padEnd(5)} ${String(o.msg ?? '')}${extra}\n`,
      );
    },
  };
}

/** Fastify `logger` options: level, and JSON or pretty by format (auto: pretty on a TTY). */
export function loggerOptions(level: string, format: LogFormat = 'auto', out: Sink = process.stdout): object {
  const pretty = format === 'pretty' || (format === 'auto' && Boolean(out.isTTY));
  // No pid/hostname on every line: journald records both, and on a card every byte is written for years.
  return { level, base: null, stream: pretty ? prettySink(out) : out };
}

/**
 * Holds back repeats: the first line of a kind in each window is written; later ones are counted and
 * the next written line of that kind says how many were held back. `kind` defaults to the message
 * with numbers masked, so "job rollups failed after 31 ms" and "… 45 ms" are one kind.
 */
export function rateLimited(write: (msg: string) => void, windowMs = 60_000, now: () => number = Date.now) {
  const seen = new Map<string, { until: number; held: number }>();
  return (msg: string, kind = msg.replace(/\d+(\.\d+)?/g, '#').slice(0, 120)): void => {
    const t = now();
    const s = seen.get(kind);
    if (s && t < s.until) {
      s.held++;
      return;
    }
    const held = s?.held ?? 0;
    seen.set(kind, { until: t + windowMs, held: 0 });
    if (seen.size > 1000) for (const [k, v] of seen) if (v.until <= t) seen.delete(k); // bounded: kinds come from clients too
    write(held ? `${msg} (${held} more like this in the last ${Math.round(windowMs / 1000)} s)` : msg);
  };
}
