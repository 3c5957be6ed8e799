/**
 * The admin UI (/admin/…) and the entity graph (/graph, /api/graph): a door like HTTP and MCP,
 * rendering server-side from the same services, readable without JavaScript. Registered from
 * app.ts with one call; see docs/admin-ui.md.
 */
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { fromStorageError, isHubError } from '../../lib/errors.js';
import { describeIssues } from '../../lib/validation.js';
import { Granularity, MetricName } from '../../tiers/timeseries/timeseries.schemas.js';
import { actionRoutes } from './actions.js';
import { askRoutes } from './actions-ask.js';
import { manageRoutes } from './actions-manage.js';
import { registerAssets } from './assets.js';
import { CSP, refuseStale, registerGuard } from './guard.js';
import { html } from './html.js';
import { backTo, page, sendPage } from './layout.js';
import { loadAdminKeys } from './keys.js';
import { dashboardPage } from './pages/dashboard.js';
import { entitiesPage, EntitiesQuery } from './pages/entities.js';
import { EntityParams, EntityQuery, entityPage } from './pages/entity.js';
import { graphApi, graphPage, GraphQuery } from './pages/graph.js';
import { prunePage } from './pages/prune.js';
import { readingsPage, StreamQuery } from './pages/readings.js';
import { createRateMeter } from './rate.js';
import { createSessions, registerSessionPlugins } from './session.js';
import { failedLogins, type FailureLimiter } from '../auth.js';
import { createReadingStream } from './stream.js';
import { tierRoutes } from './routes-tiers.js';

export interface AdminOptions {
  token?: string;
  /** The hub's extra /health info (MQTT broker and bridge). */
  health?: () => Record<string, unknown>;
  /** Where the secret of sessions lives (keys.ts); without it sessions end with the process. */
  dataDir?: string;
  /** The failed-login budget the API's doors share (auth.ts); wrong tokens here count against it. */
  failures?: FailureLimiter;
}

const SSE_HEADERS = {
  'content-security-policy': CSP,
  'cache-control': 'private, no-store',
  'x-content-type-options': 'nosniff',
};
const wantsHtml = (req: FastifyRequest) => !req.url.startsWith('/api/') && !req.url.split('?')[0].endsWith('.json');

/** Where "back" goes from an error: the form's own page, else the entity the URL names, else the dashboard. */
function backFrom(req: FastifyRequest): { href: string; label: string } {
  const entity = /^\/admin\/entity\/([^/?]+)/.exec(req.url)?.[1];
  const fallback = entity ? `/admin/entity/${entity}` : '/admin/';
  const href = backTo((req.body as Record<string, unknown> | undefined)?.next, fallback);
  return { href, label: href === '/admin/' ? 'Back to the dashboard' : 'Back to the page you came from' };
}

/** One sentence for the banner of an in-place action (htmx) that failed. */
const inPlaceMessage = (status: number) =>
  status === 404
    ? 'That memory is no longer there (forgotten or replaced meanwhile). Reload the page to see what is current.'
    : status < 500
      ? 'The hub did not accept that. Reload the page and try again.'
      : 'Something went wrong in the hub (see its log); nothing may have changed. Reload the page.';

export const adminRoutes =
  (s: Services, opts: AdminOptions = {}): FastifyPluginAsync =>
  async (app: FastifyInstance) => {
    const now = () => s.clock.now();
    const keys = loadAdminKeys(opts.dataDir, opts.token, now);
    if (keys.warning) app.log.warn(keys.warning);
    const sessions = createSessions(keys, now);
    const rate = createRateMeter();
    const stream = createReadingStream(SSE_HEADERS);
    const off = s.events.on('readings_committed', ({ items, results }) => {
      let stored = 0;
      for (const r of results) if (r.ok && !r.skipped) stored++;
      rate.add(stored);
      stream.push(items, results);
    });
    app.addHook('preClose', async () => stream.close());
    app.addHook('onClose', async () => off());

    // Cookies, sessions, CSRF and form bodies for these routes only (session.ts).
    await registerSessionPlugins(app, keys);
    registerGuard(app, sessions, opts.token, opts.failures ?? failedLogins(0));

    app.setErrorHandler((raw: FastifyError, req, reply: FastifyReply) => {
      const err = (fromStorageError(raw) ?? raw) as FastifyError;
      if (err.code?.startsWith('FST_CSRF_')) return refuseStale(req, reply);
      let status = 500;
      let message = 'internal error; see the hub log';
      if (isHubError(err)) (status = err.status), (message = err.message);
      else if (err.validation)
        (status = 400),
          (message = describeIssues(
            err.validation as never,
            err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'body'),
          ));
      else if (err.statusCode && err.statusCode < 500) (status = err.statusCode), (message = err.message);
      if (status >= 500) req.log.error({ err }, 'admin error');
      if (!wantsHtml(req))
        return reply.code(status).send({ ok: false, error: isHubError(err) ? err.code : 'invalid', message });
      if (req.headers['hx-request'] === 'true')
        return reply.code(status).type('text/plain; charset=utf-8').send(inPlaceMessage(status));
      const back = backFrom(req);
      return sendPage(
        reply,
        page(
          req,
          { title: status === 404 ? 'Not found' : 'Could not do that' },
          html`<p class="error" role="alert">${message}</p><p><a href="${back.href}">${back.label}</a></p>`,
        ),
        status,
      );
    });

    const hide = { hide: true };
    app.get('/admin', { schema: hide }, async (_req, reply) => reply.code(301).header('location', '/admin/').send());
    const dashboard = { services: s, rate, health: opts.health };
    app.get('/admin/', { schema: hide }, async (req, reply) => sendPage(reply, await dashboardPage(req, dashboard)));
    askRoutes(app, dashboard);
    app.get('/admin/entities', { schema: { ...hide, querystring: EntitiesQuery } }, async (req, reply) =>
      sendPage(reply, entitiesPage(req, s, req.query as z.infer<typeof EntitiesQuery>)),
    );
    app.get(
      '/admin/entity/:name',
      { schema: { ...hide, params: EntityParams, querystring: EntityQuery } },
      async (req, reply) =>
        sendPage(
          reply,
          entityPage(req, s, (req.params as { name: string }).name, (req.query as z.infer<typeof EntityQuery>).g),
        ),
    );
    const SeriesQuery = z.object({ metric: MetricName, g: Granularity.default('raw') });
    app.get(
      '/admin/entity/:name/series.json',
      { schema: { ...hide, params: EntityParams, querystring: SeriesQuery } },
      async (req) => {
        const q = req.query as z.infer<typeof SeriesQuery>;
        const r = s.timeseries.queryStream({
          entity_name: (req.params as { name: string }).name,
          metric: q.metric,
          granularity: q.g,
          limit: 2000,
        });
        return { ok: true, ...r };
      },
    );
    app.get('/admin/readings', { schema: { ...hide, querystring: StreamQuery } }, async (req, reply) =>
      sendPage(reply, readingsPage(req, stream, req.query as z.infer<typeof StreamQuery>, s.clock.now())),
    );
    app.get('/admin/readings/stream', { schema: { ...hide, querystring: StreamQuery } }, async (req, reply) => {
      const q = req.query as z.infer<typeof StreamQuery>;
      stream.open(req, reply, { entity: q.entity || undefined, metric: q.metric || undefined });
    });
    app.get('/admin/prune', { schema: hide }, async (req, reply) =>
      sendPage(reply, prunePage(req, s, await s.prune({ dry_run: true }, 'admin'))),
    );
    await registerAssets(app);
    app.get('/graph', { schema: { ...hide, querystring: GraphQuery } }, async (req, reply) =>
      sendPage(reply, graphPage(req, s, req.query as GraphQuery)),
    );
    app.get(
      '/api/graph',
      {
        schema: {
          tags: ['admin'],
          summary:
            'Entity graph {nodes, edges}: types inferred where the data says, located objects linked to their place; ?type=person,room and ?room=kitchen filter',
          querystring: GraphQuery,
        },
      },
      async (req) => graphApi(s, req.query as GraphQuery),
    );
    actionRoutes(app, s, sessions, opts.token, opts.failures ?? failedLogins(0));
    tierRoutes(app, s);
    manageRoutes(app, s);
    app.all('/admin/*', { schema: hide }, async (req, reply) =>
      sendPage(
        reply,
        page(
          req,
          { title: 'Not found' },
          html`<p>No page at ${req.url.split('?')[0]}.</p><p><a href="/admin/">Dashboard</a></p>`,
        ),
        404,
      ),
    );
  };
