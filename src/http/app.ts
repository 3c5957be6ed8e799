/**
 * The HTTP door (SPEC §6): Fastify with the shared zod schemas as route schemas, one error
 * handler mapping every failure to `{ok:false, error, message}`, bearer auth on everything but
 * `/health`, OpenAPI at `/docs`.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { isHubError } from '../lib/errors.js';
import { describeIssues } from '../lib/validation.js';
import type { Services } from '../services.js';
import { registerAuth } from './auth.js';
import { memoryRoutes } from './routes/memory.routes.js';
import { metricsRoute, systemRoutes } from './routes/system.routes.js';
import { mcpRoutes } from './routes/mcp.routes.js';
import { scheduleRoutes, timeseriesRoutes } from './routes/timeseries.routes.js';
import { influxRoutes } from './routes/influx.routes.js';
import { patternsRoutes } from './routes/patterns.routes.js';
import { contextRoutes } from './routes/context.routes.js';

export interface AppOptions {
  services: Services;
  token?: string;
  bodyLimit?: number;
  logger?: boolean | object;
  /** Extra info for /health (broker, bridge), filled by the hub. */
  health?: () => Record<string, unknown>;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // The seed's clients send `Content-Type: application/json` with an empty body on some GETs.
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (isHubError(err)) {
      if (err.status >= 500) req.log.error({ err }, 'service error');
      return reply.code(err.status).send({ ok: false, error: err.code, message: err.message });
    }
    if (err.validation) {
      const where = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'body');
      return reply.code(400).send({ ok: false, error: 'invalid', message: describeIssues(err.validation as never, where) });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ ok: false, error: 'too_large', message: `body: larger than the ${opts.bodyLimit ?? 1048576}-byte limit` });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, wrong content type, empty JSON body...
      return reply.code(err.statusCode).send({ ok: false, error: err.statusCode === 415 ? 'invalid' : 'invalid', message: `body: ${err.message}` });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ ok: false, error: 'internal', message: 'internal error; see the hub log' });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.code(404).send({ ok: false, error: 'not_found', message: `no route ${req.method} ${req.url.split('?')[0]}` }),
  );

  await app.register(swagger, {
    openapi: {
      info: { title: 'Hearth', description: 'The memory hub of a home', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  registerAuth(app, opts.token);
  app.get('/docs', { schema: { hide: true } }, async () => app.swagger());

  await app.register(systemRoutes(opts.services, opts.health));
  await app.register(metricsRoute(opts.services, opts.health));
  await app.register(memoryRoutes(opts.services));
  await app.register(timeseriesRoutes(opts.services));
  await app.register(scheduleRoutes(opts.services));
  await app.register(influxRoutes(opts.services));
  await app.register(patternsRoutes(opts.services));
  await app.register(contextRoutes(opts.services));
  await app.register(mcpRoutes(opts.services));
  return app;
}
