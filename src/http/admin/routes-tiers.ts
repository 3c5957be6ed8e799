/**
 * The pages for the tiers beyond entities and readings (docs/admin-ui.md): fact search, intentions,
 * conversations, working-memory tasks, unknown voices, promoted patterns and Markdown export/import.
 * Registered from index.ts with one call, inside the admin plugin (its guard, CSRF and error page).
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Services } from '../../services.js';
import { tierActionRoutes } from './actions-tiers.js';
import { sendPage } from './layout.js';
import { intentionsPage, IntentionsQuery } from './pages/intentions.js';
import { markdownPage } from './pages/markdown.js';
import { patternsPage } from './pages/patterns.js';
import { searchPage, SearchQuery } from './pages/search.js';
import { SessionParams, sessionPage, sessionsPage, SessionsQuery } from './pages/sessions.js';
import { tasksPage, TasksQuery } from './pages/tasks.js';
import { voicesPage } from './pages/voices.js';
import { MARKDOWN_JS, TIERS_CSS } from './tier-assets.js';

const ASSET_CACHE = 'private, max-age=3600';

export function tierRoutes(app: FastifyInstance, s: Services): void {
  const hide = { hide: true };
  app.get('/admin/search', { schema: { ...hide, querystring: SearchQuery } }, async (req, reply) =>
    sendPage(reply, await searchPage(req, s, req.query as z.infer<typeof SearchQuery>)),
  );
  app.get('/admin/intentions', { schema: { ...hide, querystring: IntentionsQuery } }, async (req, reply) =>
    sendPage(reply, intentionsPage(req, s, req.query as z.infer<typeof IntentionsQuery>)),
  );
  app.get('/admin/sessions', { schema: { ...hide, querystring: SessionsQuery } }, async (req, reply) =>
    sendPage(reply, await sessionsPage(req, s, req.query as z.infer<typeof SessionsQuery>)),
  );
  app.get('/admin/sessions/:id', { schema: { ...hide, params: SessionParams } }, async (req, reply) =>
    sendPage(reply, sessionPage(req, s, (req.params as z.infer<typeof SessionParams>).id)),
  );
  app.get('/admin/tasks', { schema: { ...hide, querystring: TasksQuery } }, async (req, reply) =>
    sendPage(reply, tasksPage(req, s, req.query as z.infer<typeof TasksQuery>)),
  );
  app.get('/admin/voices', { schema: hide }, async (req, reply) => sendPage(reply, voicesPage(req, s)));
  app.get('/admin/patterns', { schema: hide }, async (req, reply) => sendPage(reply, patternsPage(req, s)));
  app.get('/admin/markdown', { schema: hide }, async (req, reply) => sendPage(reply, markdownPage(req, s)));
  app.get('/admin/tier-assets/tiers.css', { schema: hide }, async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', ASSET_CACHE).send(TIERS_CSS),
  );
  app.get('/admin/tier-assets/markdown.js', { schema: hide }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', ASSET_CACHE).send(MARKDOWN_JS),
  );
  tierActionRoutes(app, s);
}
