/**
 * Markdown sync operations (markdown.service.ts): each declared once for HTTP and MCP
 * (lib/operation.ts). The HTTP exports answer files, not JSON, and stay hand routes
 * (http/routes/markdown.routes.ts); export_markdown is their MCP side.
 */
import { operationTable } from '../../lib/operation.js';
import * as M from './markdown.schemas.js';
import type { MarkdownSync } from './markdown.service.js';

type S = { markdown: Pick<MarkdownSync, 'exportOne' | 'importFiles'> };

export const markdownOperations = operationTable<S>('markdown', (op) => [
  op({
    name: 'export_markdown',
    input: M.ExportMarkdownOneInput,
    summary: 'One entity as a Markdown note (MCP only; GET /export/markdown/:name answers the file)',
    description:
      'One entity as an Obsidian-compatible Markdown note: YAML front matter, one line per active memory (with its ^m<id>, category and trust), relations as [[wikilinks]].',
    annotations: { readOnlyHint: true },
    call: (s, input) => {
      const f = s.markdown.exportOne(input.name);
      return { result: f.content, path: f.path, content: f.content };
    },
  }),
  op({
    name: 'import_markdown',
    http: { method: 'POST', path: '/import/markdown' },
    input: M.ImportMarkdownInput,
    output: M.ImportMarkdownOutput,
    summary: 'Read .md files back: edited lines supersede, new lines are remembered, missing ones reported',
    description:
      'Read Markdown notes back into memory: an edited line becomes a new version of its memory, a new line a new memory; lines that were deleted are only reported unless delete_missing is true.',
    // 'Fuzz Notes' keeps delete_missing away from the fuzz tests' baseline.
    example: {
      files: [
        {
          path: 'Fuzz Notes.md',
          content: '---\nname: Fuzz Notes\ntype: object\n---\n## Memories\n- Fuzz Notes are kept in the hall drawer\n',
        },
      ],
      delete_missing: false,
    },
    call: (s, input) => s.markdown.importFiles(input),
  }),
]);
