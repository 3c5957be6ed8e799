/**
 * Markdown exports, the seed's paths: GET /export/markdown (zip), GET /export/markdown/:name. POST
 * /import/markdown and the export_markdown tool are operations (io/markdown/markdown.operations.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services.js';
import { ExportMarkdownOneInput } from '../../io/markdown/markdown.schemas.js';

/** `attachment; filename="…"` safe for any name (RFC 6266: ASCII fallback plus RFC 5987 UTF-8). */
const disposition = (file: string) =>
  `attachment; filename="${file.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file)}`;

export const markdownRoutes =
  (s: Services): FastifyPluginAsync =>
  async (app) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    // Hand route, not an operation: it answers a zip download, not a JSON {ok: true, ...}.
    typed.get(
      '/export/markdown',
      { schema: { tags: ['markdown'], summary: 'Every entity as an Obsidian-compatible .md file, in one zip' } },
      async (_req, reply) => {
        const zip = s.markdown.exportZip();
        return reply
          .type('application/zip')
          .header('content-disposition', disposition('hearth-markdown.zip'))
          .send(Buffer.from(zip));
      },
    );
    // Hand route, not an operation: it answers the raw Markdown file (text/markdown, a download), not JSON.
    typed.get(
      '/export/markdown/:name',
      { schema: { params: ExportMarkdownOneInput, tags: ['markdown'], summary: 'One entity as a .md file' } },
      async (req, reply) => {
        const f = s.markdown.exportOne((req.params as ExportMarkdownOneInput).name);
        return reply
          .type('text/markdown; charset=utf-8')
          .header('content-disposition', disposition(f.path))
          .send(f.content);
      },
    );
  };
