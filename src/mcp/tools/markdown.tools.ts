/** Markdown sync over MCP: the same service as GET /export/markdown and POST /import/markdown. */
import type { Services } from '../../services.js';
import { ExportMarkdownOneInput, ImportMarkdownInput } from '../../io/markdown/markdown.schemas.js';
import { tool, type ToolTable } from '../tool.js';

export function markdownTools(table: ToolTable, s: Services): void {
  tool(
    table,
    'export_markdown',
    'One entity as an Obsidian-compatible Markdown note: YAML front matter, one line per active memory (with its ^m<id>, category and trust), relations as [[wikilinks]].',
    ExportMarkdownOneInput,
    (a) => {
      const f = s.markdown.exportOne(a.name);
      return { result: f.content, path: f.path, content: f.content };
    },
    { readOnlyHint: true },
  );
  tool(
    table,
    'import_markdown',
    'Read Markdown notes back into memory: an edited line becomes a new version of its memory, a new line a new memory; lines that were deleted are only reported unless delete_missing is true.',
    ImportMarkdownInput,
    (a) => s.markdown.importFiles(a),
  );
}
