/**
 * State-changing admin routes: log in/out, memory confirm/forget/edit/add, prune. Each calls the
 * same service the API calls, audited with actor `admin`. With htmx (`HX-Request`) confirm and
 * forget answer the replacement table row; without JavaScript every form answers 303 back.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { EntityName } from '../../lib/schema.js';
import { effectiveConfidence } from '../../tiers/memory/decay.js';
import { Category, RememberInput } from '../../tiers/memory/memory.schemas.js';
import { tokenMatches } from '../auth.js';
import { accessOf } from './guard.js';
import { backTo, sendPage } from './layout.js';
import { goneRow, memoryRow, MEMORY_HEAD, MEMORY_HEAD_WITH_ENTITY } from './memory-view.js';
import { LOGIN_CSP, loginPage } from './pages/login.js';
import { prunePage } from './pages/prune.js';
import { createLoginLimiter, setSessionCookie, type Sessions } from './session.js';

const MemoryParams = z.object({ id: z.coerce.number().int().positive() });
const Form = z.object({ _csrf: z.string().optional(), next: z.string().max(2000).optional() });
const EditForm = Form.extend({ fact: RememberInput.shape.fact, category: Category.optional() });
const AddForm = Form.extend({ fact: RememberInput.shape.fact, category: Category.default('general'), fact_key: z.string().trim().max(100).optional() });
const LoginForm = z.object({ token: z.string().max(1000).default(''), next: z.string().max(2000).optional() });

const isHtmx = (req: FastifyRequest) => req.headers['hx-request'] === 'true';
const back = (reply: FastifyReply, next: unknown) => reply.code(303).header('location', backTo(next)).send();

export function actionRoutes(app: FastifyInstance, s: Services, sessions: Sessions, token: string | undefined) {
  const hide = { hide: true };

  app.get('/admin/login', { schema: { ...hide, querystring: z.object({ next: z.string().max(2000).optional() }) } }, async (req, reply) => {
    const next = backTo((req.query as { next?: string }).next);
    if (!token || accessOf(req).via !== 'none') return back(reply, next);
    return sendPage(reply.header('content-security-policy', LOGIN_CSP), loginPage(next));
  });

  const limiter = createLoginLimiter();
  app.post('/admin/login', { schema: { ...hide, body: LoginForm } }, async (req, reply) => {
    const body = req.body as z.infer<typeof LoginForm>;
    if (!token) return back(reply, body.next);
    const page = (status: number, message: string) =>
      sendPage(reply.header('content-security-policy', LOGIN_CSP), loginPage(backTo(body.next), message), status);
    if (limiter.blocked(req.ip)) return page(429, 'Too many wrong tokens from this address; wait ten minutes.');
    if (!tokenMatches(body.token, token)) {
      limiter.fail(req.ip);
      return page(401, 'That is not the token of this hub.');
    }
    limiter.succeed(req.ip);
    setSessionCookie(req, reply, sessions.create());
    return back(reply, body.next);
  });

  app.post('/admin/logout', { schema: { ...hide, body: Form } }, async (req, reply) => {
    const session = accessOf(req).session;
    if (session) sessions.end(session);
    setSessionCookie(req, reply, null);
    return reply.code(303).header('location', '/admin/login').send();
  });

  /** The row as the page that sent the form shows it (the dashboard names the entity; the entity page can edit). */
  function rowFor(req: FastifyRequest, id: number, next: string) {
    const m = s.memory.repo.get(id)!;
    const dashboard = next === '/admin/';
    const view = { ...m, effective_confidence: effectiveConfidence(m, s.clock.now(), s.config.memory) };
    return memoryRow(req, view, s.clock.now(), { next, withEntity: dashboard, edit: !dashboard });
  }

  app.post('/admin/memory/:id/confirm', { schema: { ...hide, params: MemoryParams, body: Form } }, async (req, reply) => {
    const { id } = req.params as { id: number };
    const next = backTo((req.body as z.infer<typeof Form>).next);
    s.memory.confirm({ memory_id: id }, 'admin');
    return isHtmx(req) ? sendPage(reply, rowFor(req, id, next)) : back(reply, next);
  });

  app.post('/admin/memory/:id/forget', { schema: { ...hide, params: MemoryParams, body: Form } }, async (req, reply) => {
    const { id } = req.params as { id: number };
    const next = backTo((req.body as z.infer<typeof Form>).next);
    const m = s.memory.repo.get(id);
    s.memory.forget({ memory_id: id }, 'admin');
    const cols = (next === '/admin/' ? MEMORY_HEAD_WITH_ENTITY : MEMORY_HEAD).length;
    return isHtmx(req) ? sendPage(reply, goneRow({ id, fact: m?.fact ?? '' }, cols)) : back(reply, next);
  });

  app.post('/admin/memory/:id/edit', { schema: { ...hide, params: MemoryParams, body: EditForm } }, async (req, reply) => {
    const { id } = req.params as { id: number };
    const body = req.body as z.infer<typeof EditForm>;
    await s.memory.edit({ memory_id: id, fact: body.fact, category: body.category }, 'admin');
    return back(reply, body.next);
  });

  app.post('/admin/entity/:name/remember', { schema: { ...hide, params: z.object({ name: EntityName }), body: AddForm } }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const body = req.body as z.infer<typeof AddForm>;
    const e = s.entities.get(name, 'name');
    const input = RememberInput.parse({ entity_name: e.name, fact: body.fact, category: body.category, source: 'admin', source_trust: 5, fact_key: body.fact_key || undefined });
    await s.memory.remember(input, 'admin');
    return back(reply, `/admin/entity/${encodeURIComponent(e.name)}`);
  });

  app.post('/admin/prune', { schema: { ...hide, body: Form } }, async (req, reply) => sendPage(reply, prunePage(req, s, s.prune({ dry_run: false }, 'admin'))));
}
