/**
 * Entity management from the admin pages (issue #29): merge (preview, then confirm), rename, change
 * type, delete (what goes, then confirm), end a relation. Each calls s.manage — the service behind
 * POST /entities/* — audited with actor `admin`; the guard has checked the form's CSRF token. A form
 * with a mistake answers the entity page again with the message by its field (4xx); a done action
 * answers 303 with a one-time message saying how to undo it where it can be undone.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { isHubError } from '../../lib/errors.js';
import { EntityName } from '../../lib/schema.js';
import { MergeEntitiesInput, RenameEntityInput, SetEntityTypeInput } from '../../tiers/entities/manage.schemas.js';
import { backTo, sendPage } from './layout.js';
import { entityPage } from './pages/entity.js';
import { deleteConfirmPage, entityHref, mergePreviewPage, type ManageError } from './pages/entity-manage.js';
import { Form } from './form-errors.js';
import { flash } from './session.js';

const Params = z.object({ name: EntityName });
// The fields are checked in the handler with the service's own schema, so a mistake is shown by its field.
const Text = z.string().max(20_000).optional();
const Keep = z.enum(['this', 'other']).catch('this').default('this');
const MergeQuery = z.object({ other: Text, keep: Keep });
// What the preview page showed, sent back with the confirm: a change since is refused (destructive.ts).
const Id = z.coerce.number().int().positive();
const Version = z.string().max(64);
const MergeForm = Form.extend({ other: Text, keep: Keep, source_id: Id, target_id: Id, version: Version });
const DeleteForm = Form.extend({ entity_id: Id, version: Version });
const RelationParams = z.object({ id: z.coerce.number().int().positive() });

/** The first problem with a field, plainly (the API's `field: …` prefix dropped). */
const issueOf = (err: z.ZodError, field: string) => {
  const i = err.issues.find((x) => x.path[0] === field) ?? err.issues[0];
  return i.code === 'too_small'
    ? 'This is empty'
    : i.code === 'too_big'
      ? 'This is too long'
      : i.message.replace(/^\w+: /, '');
};

export function manageRoutes(app: FastifyInstance, s: Services) {
  const hide = { hide: true };
  const done = (req: FastifyRequest, reply: FastifyReply, to: string, message: string) => (
    flash.set(req, message), reply.code(303).header('location', backTo(to)).send()
  );
  /** The entity page again, the form filled in as typed, the message by its field. */
  const again = (req: FastifyRequest, reply: FastifyReply, name: string, err: ManageError, status: number) =>
    sendPage(reply, entityPage(req, s, name, 'raw', { manage: err }), status);
  /** A refusal by the service (taken name, unknown entity) shown by the field; anything else is the error page's. */
  const refused = (
    req: FastifyRequest,
    reply: FastifyReply,
    name: string,
    field: ManageError['field'],
    value: string | undefined,
    e: unknown,
  ) => {
    if (!isHubError(e) || !['conflict', 'not_found', 'invalid'].includes(e.code)) throw e;
    return again(req, reply, name, { field, value, message: e.message.replace(/^\w+: /, '') }, e.status);
  };

  /**
   * A form of one field (rename, change type): checked with the service's schema, shown again by the
   * field on a mistake or a refusal, done with a message saying how to undo it.
   */
  const oneField = <F extends 'new_name' | 'type', I, R extends { entity_name: string }>(
    action: string,
    field: F,
    schema: z.ZodType<I>,
    run: (input: I) => R | Promise<R>,
    said: (r: R) => string,
  ) =>
    app.post(
      `/admin/entity/:name/${action}`,
      { schema: { ...hide, params: Params, body: Form.extend({ [field]: Text }) } },
      async (req, reply) => {
        const e = s.entities.get((req.params as { name: string }).name, 'name');
        const value = (req.body as Record<string, string | undefined>)[field];
        const parsed = schema.safeParse({ entity_name: e.name, [field]: value ?? '' });
        if (!parsed.success)
          return again(req, reply, e.name, { field, value, message: issueOf(parsed.error, field) }, 400);
        try {
          const r = await run(parsed.data);
          return done(req, reply, entityHref(r.entity_name), said(r));
        } catch (err) {
          return refused(req, reply, e.name, field, value, err);
        }
      },
    );
  oneField(
    'rename',
    'new_name',
    RenameEntityInput,
    (i) => s.manage.rename(i, 'admin'),
    (r) => (r.changed ? `Renamed ${r.previous_name} to ${r.entity_name}. To undo, rename it back below.` : r.result),
  );
  oneField(
    'type',
    'type',
    SetEntityTypeInput,
    (i) => s.manage.setType(i, 'admin'),
    (r) =>
      r.changed
        ? `${r.entity_name} is now a ${r.type} (was ${r.previous_type}). To undo, set the type back below.`
        : r.result,
  );

  /** The merge's source and target from "which name stays". */
  const direction = (name: string, other: string, keep: 'this' | 'other') =>
    keep === 'this' ? { source_name: other, target_name: name } : { source_name: name, target_name: other };
  /** The service's input, or the mistake to show by the "other entity" field. */
  const mergeInput = (
    name: string,
    other: string | undefined,
    keep: 'this' | 'other',
    dry_run: boolean,
  ): { input?: MergeEntitiesInput; err?: ManageError } => {
    const parsed = MergeEntitiesInput.safeParse({ ...direction(name, other ?? '', keep), dry_run });
    if (parsed.success) return { input: parsed.data };
    const same = parsed.error.issues.some((i) => i.path[0] === 'target_name' && i.code === 'custom');
    return {
      err: {
        field: 'other',
        value: other,
        message: same
          ? 'Choose another entity than this one'
          : issueOf(parsed.error, keep === 'this' ? 'source_name' : 'target_name'),
      },
    };
  };

  /**
   * The merge form's route: GET previews (the form in the query), POST merges (the form in the body).
   * The service's input comes from the form's `other` and `keep`; a mistake, or a refusal by the
   * service, is shown by the "other entity" field; `answer` merges and answers.
   */
  const mergeRoute = <F extends { other?: string; keep: 'this' | 'other' }>(
    method: 'GET' | 'POST',
    form: z.ZodType<F>,
    answer: (
      req: FastifyRequest,
      reply: FastifyReply,
      name: string,
      input: MergeEntitiesInput,
      f: F,
    ) => Promise<unknown>,
  ) =>
    app.route({
      method,
      url: '/admin/entity/:name/merge',
      schema: { ...hide, params: Params, ...(method === 'GET' ? { querystring: form } : { body: form }) },
      handler: async (req, reply) => {
        const e = s.entities.get((req.params as { name: string }).name, 'name');
        const f = (method === 'GET' ? req.query : req.body) as F;
        const { input, err } = mergeInput(e.name, f.other, f.keep, method === 'GET');
        if (!input) return again(req, reply, e.name, err!, 400);
        try {
          return await answer(req, reply, e.name, input, f);
        } catch (x) {
          return refused(req, reply, e.name, 'other', f.other, x);
        }
      },
    });

  mergeRoute('GET', MergeQuery, async (req, reply, name, input, q) => {
    const preview = await s.manage.merge(input, 'admin');
    return sendPage(reply, mergePreviewPage(req, name, q.keep, q.other ?? '', preview));
  });

  mergeRoute('POST', MergeForm, async (req, reply, _name, input, body) => {
    const previewed = { source_id: body.source_id, target_id: body.target_id, version: body.version };
    const r = await s.manage.merge({ ...input, ...previewed }, 'admin');
    const moved = r.moves.counts.map((c) => `${c.n} ${c.label}`).join(', ') || 'nothing but its name';
    return done(
      req,
      reply,
      entityHref(r.target_name),
      `Merged ${r.source_name} into ${r.target_name} (${moved}). “${r.source_name}” is now another name of ${r.target_name}.`,
    );
  });

  app.get('/admin/entity/:name/delete', { schema: { ...hide, params: Params } }, async (req, reply) => {
    const asked = (req.params as { name: string }).name;
    const preview = s.manage.delete({ entity_name: asked, dry_run: true }, 'admin');
    return sendPage(reply, deleteConfirmPage(req, asked, preview));
  });

  // The form names the entity by the id and version its page showed: a page left open while the name
  // was merged into another entity (or the entity took in more) deletes nothing (409, said on the page).
  app.post(
    '/admin/entity/:name/delete',
    { schema: { ...hide, params: Params, body: DeleteForm } },
    async (req, reply) => {
      const name = (req.params as { name: string }).name;
      const { entity_id, version } = req.body as z.infer<typeof DeleteForm>;
      try {
        const r = s.manage.delete({ entity_name: name, entity_id, version, dry_run: false }, 'admin');
        return done(req, reply, '/admin/entities', r.result);
      } catch (x) {
        return refused(req, reply, name, 'delete', undefined, x);
      }
    },
  );

  app.post(
    '/admin/relation/:id/end',
    { schema: { ...hide, params: RelationParams, body: Form } },
    async (req, reply) => {
      const { id } = req.params as { id: number };
      const r = s.manage.endRelation({ relation_id: id }, 'admin');
      const sentence = `${r.entity_a} ${r.rel_type.replaceAll('_', ' ')} ${r.entity_b}`;
      return done(
        req,
        reply,
        backTo((req.body as z.infer<typeof Form>).next, entityHref(r.entity_a)),
        `Ended: ${sentence} (kept in the history below).`,
      );
    },
  );
}
