/**
 * Bodies that are JSON but not labelled so. Node-RED's template and function nodes, shell
 * scripts and some HA `rest_command`s send JSON as text/plain or with no content type at all;
 * such a body is accepted when it parses as JSON. One that does not parse answers 415 naming
 * the content type to send. Routes with their own parsers (InfluxDB line protocol) are
 * unaffected: they live in their own plugin scope.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

class MediaTypeError extends Error {
  statusCode = 415;
}

export function acceptTextJson(app: FastifyInstance): void {
  // Fastify's own text/plain parser hands routes a string; replace it with the JSON-or-415 one.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(['text/plain', '*'], { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      const type = req.headers['content-type'] ?? 'no content type';
      done(
        new MediaTypeError(`sent as ${type} and not JSON; send a JSON object with content-type: application/json`),
        undefined,
      );
    }
  });
}

/** Hides `token=` in logged URLs (MCP clients that take only a URL put the token there). */
export function redactToken<T>(logger: T): T | Record<string, unknown> {
  if (!logger) return logger;
  const req = (r: FastifyRequest) => ({
    method: r.method,
    url: r.url.replace(/([?&](?:token|p)=)[^&]*/gi, '$1[redacted]'),
    host: r.host,
    remoteAddress: r.ip,
    remotePort: r.socket?.remotePort,
  });
  const base = typeof logger === 'object' ? (logger as Record<string, unknown>) : {};
  return { ...base, serializers: { ...(base.serializers as object), req } };
}
