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
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  invalid: 400,
  unauthorized: 401,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
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
