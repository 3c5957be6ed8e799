/** /health: liveness, row counts and what the embedder is (SPEC §6). Never behind auth. */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { renderMetrics } from '../metrics.js';
import { routes } from '../route.js';
import { z } from 'zod';
import { bool, int, obj, str } from '../../lib/output.js';
import { AuditOutput, AuditQuery } from '../../tiers/audit/audit.schemas.js';
import { describeWordNet } from '../../ai/wordnet.js';

/** GET /metrics: Prometheus text. Behind the token like every route but /health. */
export const metricsRoute =
  (s: Services, extra?: () => Record<string, unknown>): FastifyPluginAsync =>
  async (app) => {
    app.get('/metrics', { schema: { tags: ['system'], summary: 'Prometheus metrics' } }, async (_req, reply) =>
      reply.type('text/plain; version=0.0.4; charset=utf-8').send(renderMetrics(s, (extra?.() ?? {}) as never)),
    );
  };

/** What `GET /health` answers besides `ok` and `result` (/docs): the details only with a token. */
const HealthOutput = z.looseObject({
  status: z.literal('ok'),
  counts: obj({ entities: int, memories: int, relations: int }).optional().describe('with a token'),
  embedder: obj({ provider: str, model: str, dim: int, answers: bool, vectors: str, pending: int })
    .optional()
    .describe('with a token'),
  wordnet: obj({}).optional(),
  llm: obj({ provider: str, model: str }).nullable().optional(),
});

/** How long one embedder ping answers /health: a flood of /health calls (it needs no token) must not become a flood of requests to Ollama. */
const PING_TTL_S = 5;

/**
 * `detailed(req)`: whether this /health caller sees the details (auth.ts `mayReadHealth`); for the
 * others only the status is worked out — a flood of tokenless /health calls costs no counting.
 */
export const systemRoutes = (
  s: Services,
  extra?: () => Record<string, unknown>,
  detailed: (req: FastifyRequest) => boolean = () => true,
) =>
  routes('system', (r) => {
    let ping: { at: number; answers: Promise<boolean> } | undefined;
    const embedderAnswers = () => {
      const now = s.clock.now(); // the hub's clock, as every other age here
      if (!ping || now - ping.at > PING_TTL_S) ping = { at: now, answers: s.embedder.ping().catch(() => false) };
      return ping.answers;
    };
    r.get(
      '/audit',
      AuditQuery,
      (q) => {
        const entries = s.audit.query(q);
        return {
          result:
            entries
              .map((e) => `${new Date(e.ts * 1000).toISOString()} ${e.actor} ${e.op} ${e.target ?? ''}`)
              .join('\n') || 'No audit entries match.',
          entries,
        };
      },
      'Audit trail of every change, newest first',
      AuditOutput,
    );
    r.get(
      '/health',
      null,
      async (_q, req) => {
        if (!detailed(req)) return { status: extra?.().status ?? 'ok' };
        const snap = s.status.snapshot();
        const counts = { entities: snap.entities, memories: snap.memories.total, relations: snap.relations.total };
        const answers = await embedderAnswers();
        const embedder = {
          provider: s.embedder.provider,
          model: s.embedder.model,
          dim: s.embedder.dim,
          answers,
          vectors: snap.vectors.state,
          pending: snap.pending_embedding,
          ...(s.embedder.note && { note: s.embedder.note }),
          ...(snap.vectors.stale_reason && { warning: snap.vectors.stale_reason }),
          ...(s.reembed.status.state !== 'idle' && { reembed: s.reembed.status }),
        };
        const llm = s.llm ? { provider: s.llm.provider, model: s.llm.model } : null;
        const wn = s.wordnet.stats();
        const wordnet = { ...wn, note: describeWordNet(wn) };
        return {
          result: `Hearth is up: ${counts.memories} memories about ${counts.entities} entities; embedder ${embedder.provider}/${embedder.model} ${answers ? 'answers' : 'does not answer'}.`,
          status: 'ok',
          counts,
          embedder,
          wordnet,
          llm,
          ...extra?.(),
        };
      },
      'Liveness; with the token, counts and what the embedder is',
      HealthOutput,
    );
  });
