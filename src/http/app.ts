/**
 * The HTTP door (SPEC §6): Fastify with the shared zod schemas as route schemas, one error
 * handler mapping every failure to `{ok:false, error, message}`, bearer auth on everything but
 * `/health`, OpenAPI at `/docs`.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import swagger from '@fastify/swagger';
import rateLimit from '@fastify/rate-limit';
import { readFileSync } from 'node:fs';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { fromStorageError, HubError, isHubError } from '../lib/errors.js';
import { check, describeIssues } from '../lib/validation.js';
import { QuietLogController } from './request-log.js';
import type { Services } from '../services.js';
import { bearerOf, carriesToken, mayReadHealth, registerAuth, tokenMatches } from './auth.js';
import { clientErrorHandler, humanBytes, registerJsonParser } from './client-errors.js';
import { capConnections, HTTP_LIMIT_DEFAULTS, serverOptions, type ConnectionLimits } from './limits.js';
import { metricsRoute, systemRoutes } from './routes/system.routes.js';
import { methodNotAllowed, trackRoutes } from './method-not-allowed.js';
import { mcpRoutes } from './routes/mcp.routes.js';
import { influxRoutes } from './routes/influx.routes.js';
import { markdownRoutes } from './routes/markdown.routes.js';
import { operationRoutes } from './operation-routes.js';
import { OPERATION_TABLES } from '../operations.js';
import { adminRoutes } from './admin/index.js';
import { sendBadAddress, wantsAdminPage } from './admin/bad-address.js';
import { sseRoutes } from './routes/sse.routes.js';
import { createSseSessions, type SseLimits } from './sse-sessions.js';
import { acceptTextJson, redactToken } from './text-json.js';
import { registerBrowserGuard } from './browser-guard.js';
import { isLoopback } from '../config/load.js';

export interface AppOptions {
  services: Services;
  token?: string;
  bodyLimit?: number;
  logger?: boolean | object;
  /** Extra info for /health (broker, bridge), filled by the hub. */
  health?: () => Record<string, unknown>;
  /** Requests per minute per client address (0 = off). */
  rateLimitPerMinute?: number;
  tls?: { cert: string; key: string };
  /** Timeouts and the connection cap (defaults in limits.ts). */
  limits?: Partial<ConnectionLimits>;
  /** Failed logins per minute per client address before it gets 429 (0 = off). */
  authFailuresPerMinute?: number;
  /** Addresses and CIDR ranges never locked out for failed logins (default loopback). */
  authFailuresIgnore?: readonly string[];
  /** Bounds of the legacy MCP SSE transport (GET /sse). */
  sse?: SseLimits;
  /** The address it listens on (default loopback): on loopback without a token the Host header is checked (browser-guard.ts). */
  host?: string;
  /** The data dir: the admin UI keeps its session secret there (admin/keys.ts). */
  dataDir?: string;
}

/** The token a request presents: the header, or `?token=` on the MCP endpoints (as auth.ts accepts it). */
function presentedToken(req: FastifyRequest): string | undefined {
  const header = bearerOf(req.headers.authorization);
  if (header !== undefined) return header;
  const path = req.url.split('?')[0];
  const q = path === '/mcp' || path === '/sse' ? (req.query as Record<string, unknown> | undefined)?.token : undefined;
  return typeof q === 'string' ? q : undefined;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const limits = { ...HTTP_LIMIT_DEFAULTS, ...opts.limits };
  const app = Fastify({
    logger: redactToken(opts.logger ?? false),
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    return503OnClosing: true,
    // One line per request (Fastify's own are two, both at info).
    logController: new QuietLogController(),
    // Entity names are up to 200 characters, percent-encoded in paths up to 3× that.
    routerOptions: { maxParamLength: 2000 },
    // Router-level errors (bad percent-encoding in the URL) answer in the same shape as the rest.
    frameworkErrors: (err, req, reply) => {
      if (wantsAdminPage(req as unknown as FastifyRequest))
        return void sendBadAddress(req as unknown as FastifyRequest, reply as unknown as FastifyReply);
      void (reply as unknown as FastifyReply)
        .code(400)
        .send({ ok: false, error: 'invalid', message: `url: ${err.message}` });
    },
    // Requests Node's parser rejects answer in the same shape too.
    clientErrorHandler,
    ...serverOptions(limits, opts.tls && { cert: readFileSync(opts.tls.cert), key: readFileSync(opts.tls.key) }),
  }).withTypeProvider<ZodTypeProvider>() as unknown as FastifyInstance;
  // The one validation path of every door (lib/validation.ts): the schema's parse with Hearth's
  // wording, and an absent body read as {} (a POST with no body to a route whose fields are optional).
  app.setValidatorCompiler<z.ZodType>(({ schema, httpPart }) => (data) => {
    const r = check(schema, data, httpPart === 'querystring' ? 'query' : (httpPart ?? 'body'));
    return r.success ? { value: r.data } : { error: new HubError('invalid', r.message) };
  });
  capConnections(app, limits, carriesToken(opts.token));
  registerJsonParser(app);

  app.setErrorHandler((raw: FastifyError, req, reply) => {
    const err = (fromStorageError(raw) ?? raw) as FastifyError;
    if (isHubError(err)) {
      if (err.status >= 500) req.log.error({ err }, 'service error');
      return reply.code(err.status).send({ ok: false, error: err.code, message: err.message });
    }
    if (err.validation) {
      const where = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'body');
      return reply
        .code(400)
        .send({ ok: false, error: 'invalid', message: describeIssues(err.validation as never, where) });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? opts.bodyLimit ?? 1048576;
      return reply.code(413).send({
        ok: false,
        error: 'too_large',
        message: `body: larger than the ${limit}-byte (${humanBytes(limit)}) limit for ${req.url.split('?')[0]}`,
      });
    }
    if (err.statusCode === 429) {
      return reply.code(429).send({ ok: false, error: 'rate_limited', message: err.message });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type, empty JSON body...
      return reply
        .code(err.statusCode)
        .send({ ok: false, error: err.statusCode === 415 ? 'invalid' : 'invalid', message: `body: ${err.message}` });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ ok: false, error: 'internal', message: 'internal error; see the hub log' });
  });
  const methodsOf = trackRoutes(app);
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    // A path whose route takes this very method reached here by its own 404 (a parameter no route accepts).
    const allowed = methodsOf(path);
    if (allowed.length && !allowed.includes(req.method))
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(methodNotAllowed(req.method, path, allowed));
    return reply.code(404).send({ ok: false, error: 'not_found', message: `no route ${req.method} ${path}` });
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Hearth', description: 'The memory hub of a home', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  const sse = createSseSessions(opts.sse);
  app.addHook('preClose', () => sse.closeAll());
  registerBrowserGuard(app, { token: opts.token, loopback: isLoopback(opts.host ?? '127.0.0.1') });
  const failures = registerAuth(app, opts.token, {
    failuresPerMinute: opts.authFailuresPerMinute,
    ignore: opts.authFailuresIgnore,
    allow: (req, path) => path === '/messages' && sse.has((req.query as Record<string, string>)?.sessionId),
  });
  acceptTextJson(app);
  if (opts.rateLimitPerMinute) {
    const token = opts.token;
    await app.register(rateLimit, {
      max: opts.rateLimitPerMinute,
      timeWindow: 60_000,
      // The per-client limit is for callers the hub cannot tell from a stranger (issue #26 item
      // 19): a request carrying the valid token is the household's own (a Node-RED flow posting
      // /record per reading) and is held back by capacity instead — the batched writer, the
      // connection cap, body limits — never refused for being busy. Wrong tokens have their own
      // limiter (auth.ts); without a token set everyone counts, under a default no home reaches.
      allowList: (req) =>
        req.url === '/health' || (token !== undefined && token !== '' && tokenMatches(presentedToken(req), token)),
      errorResponseBuilder: (_req, ctx) => ({
        statusCode: 429,
        ok: false,
        error: 'rate_limited',
        message: `rate limit: more than ${ctx.max} requests per minute from this client; retry in ${Math.ceil(ctx.ttl / 1000)} s`,
      }),
    });
  }
  app.get('/docs', { schema: { hide: true } }, async () => app.swagger());

  await app.register(systemRoutes(opts.services, opts.health, (req) => mayReadHealth(req, opts.token)));
  await app.register(metricsRoute(opts.services, opts.health));
  await app.register(influxRoutes(opts.services));
  await app.register(markdownRoutes(opts.services));
  for (const table of OPERATION_TABLES) await app.register(operationRoutes(table, opts.services));
  await app.register(mcpRoutes(opts.services));
  await app.register(
    adminRoutes(opts.services, { token: opts.token, health: opts.health, dataDir: opts.dataDir, failures }),
  );
  await app.register(sseRoutes(opts.services, sse));
  return app;
}
