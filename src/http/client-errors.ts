/**
 * Errors found before a route runs, in the same `{ok:false, error, message}` shape as the rest
 * (issue #10 item 16): requests Node's HTTP parser rejects (Fastify `clientErrorHandler`; Fastify's
 * default answers in its own shape), and JSON bodies — a `__proto__` or `constructor.prototype` key
 * is refused as such rather than called "not valid JSON" (Fastify's default parser says that for
 * both, since secure-json-parse throws either way).
 */
import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** Node's `--max-http-header-size` default. */
const MAX_HEADER_BYTES = 16 * 1024;

/** A human size for messages: 10485760 → "10 MiB". */
export const humanBytes = (n: number) =>
  n % (1024 * 1024) === 0 ? `${n / 1024 / 1024} MiB` : n % 1024 === 0 ? `${n / 1024} KiB` : `${n} bytes`;

function answer(err: NodeJS.ErrnoException & { reason?: string }): [number, string, string] {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'timeout', 'request: not received in time (http.request_timeout_ms / http.headers_timeout_ms)'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'too_large', `headers: larger than the ${humanBytes(MAX_HEADER_BYTES)} limit`];
    case 'HPE_INVALID_CHUNK_SIZE':
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return [400, 'invalid', `body: malformed framing (${err.reason ?? err.code})`];
    default:
      return [400, 'invalid', `request: not valid HTTP/1.1 (${err.reason ?? err.code ?? 'parse error'})`];
  }
}

/** Fastify `clientErrorHandler`: one JSON answer, then the connection closes (as Node does). */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, error, message] = answer(err);
  const body = JSON.stringify({ ok: false, error, message });
  const started = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (socket.writable && !started) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

class BodyError extends Error {
  statusCode = 400;
}

const PROTO = 'the key "__proto__" is not allowed (it could rewrite object prototypes); rename it';
const CTOR = 'the key "constructor" holding "prototype" is not allowed (it could rewrite object prototypes); rename it';

/** Throws when a parsed JSON value holds a prototype-poisoning key (iterative: deep values are fine). */
function refusePrototypeKeys(root: unknown): void {
  const stack = [root];
  while (stack.length) {
    const v = stack.pop();
    if (!v || typeof v !== 'object') continue;
    if (!Array.isArray(v)) {
      if (Object.hasOwn(v, '__proto__')) throw new BodyError(PROTO);
      const c = (v as Record<string, unknown>).constructor;
      if (Object.hasOwn(v, 'constructor') && c && typeof c === 'object' && Object.hasOwn(c, 'prototype'))
        throw new BodyError(CTOR);
    }
    for (const child of Object.values(v)) if (child && typeof child === 'object') stack.push(child);
  }
}

/** JSON.parse that refuses prototype keys by name (they stay refused: SECURITY.md). */
function parseJson(text: string): unknown {
  // An empty body is no body (`curl -X POST -H 'content-type: application/json'`, a rest_command
  // without a payload): the route's schema then reads it as {} or names the fields it needs.
  if (text.trim().length === 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new BodyError(`not valid JSON (${(e as Error).message})`);
  }
  // Always scanned: `\u005f_proto__` spells the key without the literal text.
  refusePrototypeKeys(value);
  return value;
}

/** Replaces Fastify's JSON parser (same body limit per route) with one that names what is wrong. */
export function registerJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseJson(body as string));
    } catch (e) {
      done(e as Error, undefined);
    }
  });
}
