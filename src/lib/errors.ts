/**
 * The one error type services throw. Each door maps `code` to its own shape once:
 * HTTP status (see `httpStatus`), MCP tool error, MQTT log line.
 */
export type ErrorCode =
  | 'invalid'
  | 'unauthorized'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable'
  | 'insufficient_storage'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
  insufficient_storage: 507,
  internal: 500,
};

export class HubError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HubError';
  }

  get status(): number {
    return STATUS[this.code];
  }
}

export const invalid = (message: string) => new HubError('invalid', message);
export const notFound = (message: string) => new HubError('not_found', message);
export const unavailable = (message: string) => new HubError('unavailable', message);

export function isHubError(e: unknown): e is HubError {
  return e instanceof HubError;
}

/**
 * Storage failures (disk full, I/O error, database locked or read-only) become `unavailable`
 * (HTTP 503): the request was fine, the hub cannot store it right now, and nothing was committed.
 */
export function fromStorageError(e: unknown): HubError | undefined {
  const code = (e as { code?: unknown })?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  if (/^SQLITE_(CORRUPT|NOTADB)/.test(code)) {
    for (const watch of damageWatchers) watch((e as Error).message);
    return new HubError(
      'unavailable',
      'the database is damaged; nothing was stored. The operator should run `hearth doctor`, then `hearth restore` a backup',
    );
  }
  const why =
    code === 'SQLITE_FULL'
      ? 'storage is full'
      : code.startsWith('SQLITE_IOERR')
        ? 'storage I/O error'
        : code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')
          ? 'database is busy'
          : code.startsWith('SQLITE_READONLY')
            ? 'database is read-only'
            : `database error ${code}`;
  return new HubError('unavailable', `${why}; nothing was stored, retry later`);
}

/** Called with SQLite's message when a request meets a damaged database (/health turns degraded). */
const damageWatchers = new Set<(message: string) => void>();
export function watchDamage(fn: (message: string) => void): () => void {
  damageWatchers.add(fn);
  return () => void damageWatchers.delete(fn);
}
