/**
 * HTTP routes derived from an operation table (lib/operation.ts): each operation with an `http` entry
 * becomes a route through the same Router as the hand-declared ones — body or query validated by the
 * operation's input schema, the answer wrapped as `{ok: true, ...}`, its output schema as the /docs 200
 * response, declared beside it.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { OperationTable } from '../lib/operation.js';
import { routes } from './route.js';

export function operationRoutes<Svc>(table: OperationTable<Svc>, services: Svc): FastifyPluginAsync {
  return routes(table.tag, (r) => {
    for (const op of table.operations) {
      if (!op.http) continue;
      const handler = (input: unknown) => op.call(services, input as never, { actor: 'http' });
      if (op.http.method === 'POST') r.post(op.http.path, op.input, handler, op.summary, op.output);
      else r.get(op.http.path, op.input, handler, op.summary, op.output);
    }
  });
}
