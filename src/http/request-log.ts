/**
 * One log line per HTTP request, `POST /recall 200 3.1 ms`, instead of Fastify's two ("incoming
 * request", "request completed", both at info). Successes of the routes sensors and monitors call
 * all day are logged at debug only; a 4xx is logged once a minute per route and status, with the
 * count of those held back (a misconfigured sensor must not fill the card). Fastify's LogController
 * (Server.md, "logController") is the supported way to replace its request lines.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { rateLimited } from '../lib/log.js';

/** Routes that sensors and monitors call all day: their successes are logged at debug only. */
export const QUIET_ROUTES = new Set(['/record', '/record/bulk', '/write', '/api/v2/write', '/health', '/metrics']);

export class QuietLogController extends LogController {
  /** One per app (buildApp makes one controller per app); writes through that app's logger. */
  private clientErrors?: (msg: string, kind?: string) => void;

  override incomingRequest(): void {}

  override routeNotFound(): void {} // the 404 gets its line in requestCompleted

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const log = reply.log;
    const status = reply.statusCode;
    const route = request.routeOptions?.url ?? '';
    const line = `${request.method} ${request.url.split('?')[0].slice(0, 200)} ${status} ${reply.elapsedTime.toFixed(1)} ms`;
    if (error || status >= 500) log.error(error ? { err: error } : {}, line);
    else if (status >= 400)
      (this.clientErrors ??= rateLimited((m) => request.server.log.info(m)))(
        line,
        `${request.method} ${route || '(no route)'} ${status}`,
      );
    else if (QUIET_ROUTES.has(route)) log.debug(line);
    else log.info(line);
  }
}
