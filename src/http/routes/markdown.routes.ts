/** Markdown sync routes, the seed's paths: GET /export/markdown (zip), GET /export/markdown/:name, POST /import/markdown. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services.js';
import { ExportMarkdownOneInput, ImportMarkdownInput } from '../../io/markdown/markdown.schemas.js';
import { routes } from '../route.js';

/** `attachment; filename="…"` safe for any name (RFC 6266: ASCII fallback plus RFC 5987 UTF-8). */
const disposition = (file: string) =>
  `attachment; filename="${file.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file)}`;

export const markdownRoutes =
  (s: Services): FastifyPluginAsync =>
  async (app) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
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
    await app.register(
      routes('markdown', (r) => {
        r.post(
          '/import/markdown',
          ImportMarkdownInput,
          (b) => s.markdown.importFiles(b),
          'Read .md files back: edited lines supersede, new lines are remembered, missing ones reported',
        );
      }),
    );
  };
