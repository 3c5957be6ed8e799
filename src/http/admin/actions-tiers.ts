/**
 * The tier pages' state-changing forms: dismiss an intention, name (enroll) or merge an unknown voice,
 * import Markdown notes. Each calls the same service the API calls (actor `admin`; a Markdown import is
 * audited as `import`, as from every door), after the guard's same-site and CSRF checks. Without
 * JavaScript each answers 303 back with a one-time message, or its page again with the mistake by its field.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { isHubError } from '../../lib/errors.js';
import { EntityName } from '../../lib/schema.js';
import { ImportMarkdownInput, MarkdownFile } from '../../io/markdown/markdown.schemas.js';
import { EnrollInput, MergeInput } from '../../tiers/voices/voices.schemas.js';
import { backTo, sendPage } from './layout.js';
import { importResultPage, markdownPage, type MarkdownFormState } from './pages/markdown.js';
import { voicesPage } from './pages/voices.js';
import { Form } from './form-errors.js';
import { flash } from './session.js';

export const IntentionParams = z.object({ id: z.coerce.number().int().positive() });
// The forms' own fields are checked in the handler, so a mistake is shown by its field.
const EnrollForm = Form.extend({ entity_name: EntityName, new_name: z.string().max(1000).optional() });
const MergeForm = Form.extend({ source_name: EntityName, target_name: z.string().max(1000).optional() });
const EnrollFields = z.object({ entity_name: EnrollInput.shape.entity_name, new_name: EntityName });
const MergeFields = z.object({ source_name: MergeInput.shape.source_name, target_name: EntityName });
/** Markdown import: pasted (name + content), or picked files (JSON from markdown.js), or a zip (base64). */
const ImportForm = Form.extend({
  name: z.string().max(500).optional(),
  content: z.string().max(1_000_000).optional(),
  files: z.string().max(300_000_000).optional(),
  zip: z.string().max(300_000_000).optional(),
  delete_missing: z.enum(['1']).optional(),
});
const PickedFiles = z.array(MarkdownFile).max(5000);

const NAME_SAYS = {
  new_name: 'Type the name of the person whose voice this is',
  target_name: 'Type the name of the voice or person this one is',
};

export function tierActionRoutes(app: FastifyInstance, s: Services) {
  const hide = { hide: true };
  const done = (req: FastifyRequest, reply: FastifyReply, next: string, message: string) => {
    flash.set(req, message);
    return reply.code(303).header('location', next).send();
  };

  app.post(
    '/admin/intentions/:id/dismiss',
    { schema: { ...hide, params: IntentionParams, body: Form } },
    async (req, reply) => {
      const { id } = req.params as z.infer<typeof IntentionParams>;
      const r = s.prospective.dismiss({ intention_id: id }, 'admin');
      const next = backTo((req.body as z.infer<typeof Form>).next, '/admin/intentions');
      return done(
        req,
        reply,
        next,
        r.dismissed
          ? `Dismissed: ${r.result.replace(/^Dismissed intention \d+: /, '')}`
          : 'That reminder was already off.',
      );
    },
  );

  app.post('/admin/voices/enroll', { schema: { ...hide, body: EnrollForm } }, async (req, reply) => {
    const body = req.body as z.infer<typeof EnrollForm>;
    const again = (errors: Record<string, string>) =>
      sendPage(
        reply,
        voicesPage(req, s, { speaker: body.entity_name, form: 'enroll', values: { new_name: body.new_name }, errors }),
        400,
      );
    const parsed = EnrollFields.safeParse(body);
    if (!parsed.success) return again({ new_name: NAME_SAYS.new_name });
    try {
      const r = await s.voices.enroll(
        { entity_name: parsed.data.entity_name, new_name: parsed.data.new_name },
        'admin',
      );
      return done(
        req,
        reply,
        '/admin/voices',
        `${parsed.data.entity_name} is now ${r.entity_name}; everything heard and remembered stays with them.`,
      );
    } catch (e) {
      if (isHubError(e) && e.code === 'conflict')
        return again({
          new_name: `Someone called ${parsed.data.new_name} is already known: merge this voice into them instead.`,
        });
      throw e;
    }
  });

  app.post('/admin/voices/merge', { schema: { ...hide, body: MergeForm } }, async (req, reply) => {
    const body = req.body as z.infer<typeof MergeForm>;
    const again = (errors: Record<string, string>, status = 400) =>
      sendPage(
        reply,
        voicesPage(req, s, {
          speaker: body.source_name,
          form: 'merge',
          values: { target_name: body.target_name },
          errors,
        }),
        status,
      );
    const parsed = MergeFields.safeParse(body);
    if (!parsed.success) return again({ target_name: NAME_SAYS.target_name });
    const checked = MergeInput.safeParse(parsed.data);
    if (!checked.success) return again({ target_name: 'Choose another voice than this one' });
    try {
      const r = await s.voices.merge(checked.data, 'admin');
      return done(
        req,
        reply,
        '/admin/voices',
        `${r.source_deleted} and ${r.target_name} are one voice now: ${r.target_name} keeps everything.`,
      );
    } catch (e) {
      if (isHubError(e) && e.code === 'not_found' && /target_name/.test(e.message))
        return again({ target_name: `No one called ${parsed.data.target_name} is known` }, 404);
      throw e;
    }
  });

  app.get('/admin/markdown/hearth-markdown.zip', { schema: hide }, async (_req, reply) =>
    reply
      .type('application/zip')
      .header('content-disposition', 'attachment; filename="hearth-markdown.zip"')
      .send(Buffer.from(s.markdown.exportZip())),
  );

  // The notes arrive base64- or JSON- and URL-encoded (up to ~3× their size): four times the API's limit, at least 4 MB.
  const importLimit = Math.max(4 * s.config.http.body_limit, 4 * 1024 * 1024);
  app.post(
    '/admin/markdown/import',
    { schema: { ...hide, body: ImportForm }, bodyLimit: importLimit },
    async (req, reply) => {
      const body = req.body as z.infer<typeof ImportForm>;
      const state: MarkdownFormState = {
        name: body.name,
        content: body.content,
        delete_missing: body.delete_missing === '1',
        errors: {},
      };
      const again = (errors: Record<string, string>, status = 400) =>
        sendPage(reply, markdownPage(req, s, { ...state, errors }), status);
      const files: { path: string; content: string }[] = [];
      if (body.zip) {
        try {
          files.push(...s.markdown.filesOfZip(Buffer.from(body.zip, 'base64')));
        } catch (e) {
          // A zip whose notes inflate past the caps (a zip bomb, zip.ts): 413, naming the cap.
          if (isHubError(e) && e.code === 'too_large')
            return again({ files: `That zip is too large to import: ${e.message.replace(/^zip: /, '')}.` }, 413);
          if (isHubError(e))
            return again({ files: 'That file is not a readable zip. Choose the .zip Hearth exported, or .md notes.' });
          throw e;
        }
      }
      if (body.files) {
        let picked: unknown;
        try {
          picked = JSON.parse(body.files);
        } catch {
          picked = null;
        }
        const p = PickedFiles.safeParse(picked);
        if (!p.success) return again({ files: 'The chosen files could not be read. Choose them again.' });
        files.push(...p.data);
      }
      const pasted = body.content?.trim();
      if (pasted) {
        const name = body.name?.trim().replace(/\.md$/i, '');
        if (!name) return again({ name: 'Give the pasted note a name (the entity it is about, e.g. Brian)' });
        files.push({ path: `${name}.md`, content: body.content! });
      } else if (body.name?.trim() && !files.length) return again({ content: 'Paste the text of the note' });
      if (!files.length) return again({ files: 'Choose notes to import, or paste one' });
      const input = ImportMarkdownInput.safeParse({ files, delete_missing: state.delete_missing });
      if (!input.success)
        return again({ files: `The notes could not be read: ${input.error.issues[0]?.message ?? 'invalid'}` });
      const report = await s.markdown.importFiles(input.data);
      return sendPage(reply, importResultPage(req, report, state.delete_missing ?? false));
    },
  );
}
