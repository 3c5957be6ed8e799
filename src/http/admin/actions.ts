/**
 * State-changing admin routes: log in/out, memory confirm/forget/edit/add, prune. Each calls the
 * same service the API calls, audited with actor `admin`. With htmx (`HX-Request`) confirm and
 * forget answer the replacement table row; without JavaScript every form answers 303 back with a
 * one-time message (flash.ts). A form with a mistake answers its page again, filled in as typed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { notFound } from '../../lib/errors.js';
import { EntityName } from '../../lib/schema.js';
import { effectiveConfidence } from '../../tiers/memory/decay.js';
import { Category, RememberInput } from '../../tiers/memory/memory.schemas.js';
import { tokenMatches, type FailureLimiter } from '../auth.js';
import { accessOf, grant } from './access.js';
import { fieldErrors, Form, Next, plainRefusal } from './form-errors.js';
import { backTo, sendPage } from './layout.js';
import { goneRow, memoryRow, MEMORY_HEAD, MEMORY_HEAD_WITH_ENTITY } from './memory-view.js';
import { entityPage } from './pages/entity.js';
import { LOGIN_CSP, loginPage } from './pages/login.js';
import { prunePage } from './pages/prune.js';
import { pendingFromLogin, resendPage } from './pages/resend.js';
import { flash, type Sessions } from './session.js';

const MemoryParams = z.object({ id: z.coerce.number().int().positive() });
// The forms' own fields are checked in the handler, so a mistake can be shown by its field.
const EditForm = Form.extend({ fact: z.string().max(20_000).optional(), category: z.string().max(200).optional() });
const AddForm = EditForm.extend({ fact_key: z.string().max(2000).optional() });
const EditFields = z.object({ fact: RememberInput.shape.fact, category: Category.optional() });
const AddFields = z.object({
  fact: RememberInput.shape.fact,
  category: Category.default('general'),
  fact_key: z.string().trim().max(100).optional(),
});
const resume = z.string().max(4000).optional();
const LoginForm = z.object({
  token: z.string().max(1000).default(''),
  next: Next,
  resume_action: resume,
  resume_fact: resume,
  resume_category: resume,
  resume_fact_key: resume,
});

const isHtmx = (req: FastifyRequest) => req.headers['hx-request'] === 'true';
const back = (reply: FastifyReply, next: unknown) => reply.code(303).header('location', backTo(next)).send();

export function actionRoutes(
  app: FastifyInstance,
  s: Services,
  sessions: Sessions,
  token: string | undefined,
  failures: FailureLimiter,
) {
  const hide = { hide: true };
  const done = (req: FastifyRequest, reply: FastifyReply, next: unknown, message: string) => (
    flash.set(req, message), back(reply, next)
  );

  app.get('/admin/login', { schema: { ...hide, querystring: z.object({ next: Next }) } }, async (req, reply) => {
    const next = backTo((req.query as { next?: string }).next);
    if (!token || accessOf(req).via !== 'none') return back(reply, next);
    return sendPage(reply.header('content-security-policy', LOGIN_CSP), loginPage(next));
  });

  // The guard has already refused a form from another site and an address over its failed-login
  // budget (429), before the token is compared here.
  app.post('/admin/login', { schema: { ...hide, body: LoginForm } }, async (req, reply) => {
    const body = req.body as z.infer<typeof LoginForm>;
    if (!token) return back(reply, body.next);
    const pending = pendingFromLogin(body, backTo(body.next));
    const page = (status: number, message: string) =>
      sendPage(
        reply.header('content-security-policy', LOGIN_CSP),
        loginPage(backTo(body.next), message, pending),
        status,
      );
    if (!tokenMatches(body.token, token)) {
      if (body.token) failures.fail(req); // an empty form is no guess
      return page(401, 'That is not the token of this hub.');
    }
    sessions.start(req, reply, true);
    if (!pending) return back(reply, body.next);
    grant(req, { via: 'session', csrf: () => reply.generateCsrf() });
    return sendPage(reply, resendPage(req, pending, 'login'));
  });

  app.post('/admin/logout', { schema: { ...hide, body: Form } }, async (req, reply) => {
    sessions.end(req);
    return reply.code(303).header('location', '/admin/login').send();
  });

  /** The row as the page that sent the form shows it (the dashboard names the entity; the entity page can edit). */
  function rowFor(req: FastifyRequest, id: number, next: string) {
    const m = s.memory.get(id)!;
    const dashboard = next === '/admin/';
    const view = { ...m, effective_confidence: effectiveConfidence(m, s.clock.now(), s.config.memory) };
    return memoryRow(req, view, s.clock.now(), { next, withEntity: dashboard, edit: !dashboard });
  }

  /** A button of a memory's row (confirm, forget): `act` gets the memory's id and the page the form came from. */
  const rowButton = (
    action: 'confirm' | 'forget',
    act: (req: FastifyRequest, reply: FastifyReply, id: number, next: string) => unknown,
  ) =>
    app.post(
      `/admin/memory/:id/${action}`,
      { schema: { ...hide, params: MemoryParams, body: Form } },
      async (req, reply) => {
        const { id } = req.params as { id: number };
        return act(req, reply, id, backTo((req.body as z.infer<typeof Form>).next));
      },
    );

  rowButton('confirm', (req, reply, id, next) => {
    s.memory.confirm({ memory_id: id }, 'admin');
    return isHtmx(req)
      ? sendPage(reply, rowFor(req, id, next))
      : done(req, reply, next, `Confirmed: ${s.memory.get(id)?.fact ?? ''}`);
  });

  rowButton('forget', (req, reply, id, next) => {
    const m = s.memory.get(id);
    s.memory.forget({ memory_id: id }, 'admin');
    if (!isHtmx(req)) return done(req, reply, next, `Forgotten: ${m?.fact ?? ''}`);
    // The entity page's "Memories (n)" follows (admin.js listens for this event).
    if (m)
      reply.header(
        'hx-trigger',
        JSON.stringify({ 'hearth:memories': { count: s.overview.memoriesOf(m.entity_id).length } }),
      );
    const cols = (next === '/admin/' ? MEMORY_HEAD_WITH_ENTITY : MEMORY_HEAD).length;
    return sendPage(reply, goneRow({ id, fact: m?.fact ?? '' }, cols));
  });

  app.post(
    '/admin/memory/:id/edit',
    { schema: { ...hide, params: MemoryParams, body: EditForm } },
    async (req, reply) => {
      const { id } = req.params as { id: number };
      const body = req.body as z.infer<typeof EditForm>;
      const m = s.memory.get(id);
      if (!m) throw notFound(`memory_id: no memory with id ${id}`);
      const again = (errors: Record<string, string>, error?: string) =>
        sendPage(
          reply,
          entityPage(req, s, m.entity_name, 'raw', {
            edit: { id, fact: body.fact, category: body.category, errors },
            error,
          }),
          400,
        );
      const parsed = EditFields.safeParse(body);
      if (!parsed.success) return again(fieldErrors(parsed.error));
      try {
        await s.memory.edit({ memory_id: id, fact: parsed.data.fact, category: parsed.data.category }, 'admin');
      } catch (e) {
        return again({}, plainRefusal(e));
      }
      return done(
        req,
        reply,
        body.next ?? `/admin/entity/${encodeURIComponent(m.entity_name)}`,
        `Saved: ${parsed.data.fact}`,
      );
    },
  );

  app.post(
    '/admin/entity/:name/remember',
    { schema: { ...hide, params: z.object({ name: EntityName }), body: AddForm } },
    async (req, reply) => {
      const { name } = req.params as { name: string };
      const body = req.body as z.infer<typeof AddForm>;
      const e = s.entities.get(name, 'name');
      const parsed = AddFields.safeParse(body);
      if (!parsed.success) {
        return sendPage(
          reply,
          entityPage(req, s, e.name, 'raw', {
            add: {
              fact: body.fact,
              category: body.category,
              fact_key: body.fact_key,
              errors: fieldErrors(parsed.error),
            },
          }),
          400,
        );
      }
      const f = parsed.data;
      const r = await s.memory.remember(
        RememberInput.parse({
          entity_name: e.name,
          fact: f.fact,
          category: f.category,
          source: 'admin',
          source_trust: 5,
          fact_key: f.fact_key || undefined,
        }),
        'admin',
      );
      const message = {
        added: `Saved: ${f.fact}`,
        reinforced: `Already known — confirmed: ${s.memory.get(r.id)?.fact ?? f.fact}`,
        superseded: `Saved: ${f.fact} (it replaces the earlier version)`,
        contested: `Kept as contested: ${f.fact} — a more trusted source says otherwise`,
      }[r.action];
      return done(req, reply, `/admin/entity/${encodeURIComponent(e.name)}`, message);
    },
  );

  app.post('/admin/prune', { schema: { ...hide, body: Form } }, async (req, reply) =>
    sendPage(reply, prunePage(req, s, await s.prune({ dry_run: false }, 'admin'))),
  );
}
