/** Markdown sync operations: one zod object each, shared by HTTP and MCP. */
import { z } from 'zod';
import { EntityName } from '../../lib/schema.js';
import { int, list, str } from '../../lib/output.js';

export const ExportMarkdownOneInput = z.strictObject({
  name: EntityName.describe('the entity to export, e.g. "Brian"'),
});
export type ExportMarkdownOneInput = z.infer<typeof ExportMarkdownOneInput>;

export const MarkdownFile = z.object({
  path: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('the file name in the vault, e.g. "Brian.md" (a label only; nothing is written there)'),
  content: z
    .string()
    .max(1_000_000)
    .regex(/^[^\u0000]*$/, 'must not contain NUL bytes'),
});

export const ImportMarkdownInput = z.strictObject({
  files: z
    .array(MarkdownFile)
    .min(1, 'give at least one file')
    .max(5000)
    .describe('the notes, each {path, content} as exported (one .md per entity)'),
  delete_missing: z
    .boolean()
    .default(false)
    .describe(
      'forget active memories (and end relations) of an imported entity that its file no longer lists; otherwise they are only reported',
    ),
});
export type ImportMarkdownInput = z.infer<typeof ImportMarkdownInput>;

export const ExportMarkdownListInput = z.strictObject({});

// What import_markdown answers besides `ok: true` (describe-only, for /docs).
export const ImportMarkdownOutput = z.looseObject({
  files: int,
  entities_created: int,
  entities_updated: int,
  added: int,
  superseded: int,
  reinforced: int,
  unchanged: int,
  missing: list({ entity_name: str, id: int, fact: str }),
  conflicts: z.array(z.unknown()),
  errors: z.array(z.unknown()),
});
