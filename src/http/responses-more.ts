/**
 * The documented answers (responses.ts) of the system routes, which are not operations (/health with a
 * token, /audit).
 */
import { z } from 'zod';
import { bool, int, list, obj, str, ts } from '../lib/output.js';

export const MORE_RESPONSES: Record<string, Record<string, z.ZodType>> = {
  // system.routes.ts
  'GET /audit': {
    entries: list({
      id: int,
      ts,
      actor: str,
      op: str,
      target: str.nullable(),
      before: z.unknown(),
      after: z.unknown(),
    }),
  },
  'GET /health': {
    status: z.literal('ok'),
    counts: obj({ entities: int, memories: int, relations: int }).optional().describe('with a token'),
    embedder: obj({ provider: str, model: str, dim: int, answers: bool, vectors: str, pending: int })
      .optional()
      .describe('with a token'),
    wordnet: obj({}).optional(),
    llm: obj({ provider: str, model: str }).nullable().optional(),
  },
};
