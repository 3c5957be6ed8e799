/**
 * POST /admin/ask: the dashboard's Ask box. The question is checked by the ask door's own schema
 * (AskInput: 400 naming the field, in plain words), then answered by the same service as POST /ask
 * and MCP `ask`. With htmx the answer replaces the box's answer area; without JavaScript the
 * dashboard is answered again with the question in the box and the answer under it. Like every admin
 * form it carries the session's CSRF token (the guard checks it, and refuses another site's form).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { isHubError } from '../../lib/errors.js';
import { AskInput } from '../../tiers/ask/ask.schemas.js';
import { fieldErrors, Form } from './form-errors.js';
import { sendPage } from './layout.js';
import { askAnswer, type AskState } from './pages/ask-box.js';
import { dashboardPage, type DashboardDeps } from './pages/dashboard.js';

// The field is checked in the handler (AskInput), so a mistake is shown by the box.
const AskForm = Form.extend({ question: z.string().max(20_000).optional() });
const isHtmx = (req: FastifyRequest) => req.headers['hx-request'] === 'true';

export function askRoutes(app: FastifyInstance, deps: DashboardDeps): void {
  const s: Services = deps.services;
  app.post('/admin/ask', { schema: { hide: true, body: AskForm } }, async (req, reply) => {
    const body = req.body as z.infer<typeof AskForm>;
    const parsed = AskInput.safeParse({ question: body.question ?? '' });
    let state: AskState = { question: body.question };
    let status = 200;
    if (!parsed.success) {
      state = { ...state, error: fieldErrors(parsed.error).question ?? 'This question cannot be asked' };
      status = 400;
    } else {
      try {
        state = { ...state, answer: await s.ask.ask(parsed.data) };
      } catch (e) {
        if (!isHubError(e) || e.status >= 500) throw e;
        state = { ...state, error: `Hearth could not answer that: ${e.message.replace(/^\w+: /, '')}` };
        status = e.status;
      }
    }
    if (isHtmx(req)) {
      // A mistake is one plain sentence for the banner (admin.js), like every in-place action.
      if (state.error) return reply.code(status).type('text/plain; charset=utf-8').send(state.error);
      return sendPage(reply, askAnswer(state, s.clock.now()));
    }
    return sendPage(reply, await dashboardPage(req, deps, state), status);
  });
}
