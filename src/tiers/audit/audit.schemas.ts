/** `GET /audit`: who changed what, when (SPEC §3 audit table). */
import { z } from 'zod';
import { int, list, str, ts } from '../../lib/output.js';

export const AuditQuery = z.strictObject({
  actor: z.enum(['http', 'mcp', 'mqtt', 'cli', 'pattern_engine', 'admin', 'scheduler', 'system', 'import']).optional(),
  op: z.string().trim().min(1).max(100).optional().describe('exact op (memory.add) or a prefix ending in * (memory.*)'),
  target: z.string().max(300).optional(),
  since: z.coerce.number().min(0).optional().describe('epoch seconds'),
  until: z.coerce.number().min(0).optional().describe('epoch seconds'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type AuditQuery = z.infer<typeof AuditQuery>;

/** What `GET /audit` answers besides `ok` and `result` (/docs). */
export const AuditOutput = z.looseObject({
  entries: list({
    id: int,
    ts,
    actor: str,
    op: str,
    target: str.nullable(),
    before: z.unknown(),
    after: z.unknown(),
  }),
});
