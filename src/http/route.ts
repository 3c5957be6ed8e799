/**
 * Table helpers so each route is one line: the shared zod schema validates (body for POST, query
 * for GET, params for path segments) and the service result is wrapped as `{ok: true, ...}`.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Handler<S extends z.ZodType> = (input: z.infer<S>, req: FastifyRequest) => unknown | Promise<unknown>;

export interface Router {
  post<S extends z.ZodType>(url: string, schema: S, handler: Handler<S>, summary?: string, output?: z.ZodObject): void;
  get<S extends z.ZodType>(
    url: string,
    schema: S | null,
    handler: Handler<S>,
    summary?: string,
    output?: z.ZodObject,
  ): void;
}

/** The routes that declared their answer, as `METHOD path` (tests check /docs shows each). */
const documented = new Set<string>();
export const documentedRoutes = (): string[] => [...documented];

/**
 * The route's documented answer, declared beside it (an operation's `output`, or a hand route's), as
 * its 200 response schema for /docs: `{ok: true, result, ...output}`, loose. Fastify would serialise
 * through a response schema and drop the fields it does not list; these routes serialise with
 * JSON.stringify instead, so the schema only describes.
 */
function answer(method: 'GET' | 'POST', url: string, output?: z.ZodObject) {
  if (!output) return {};
  documented.add(`${method} ${url}`);
  const ok = z.looseObject({
    ok: z.literal(true),
    result: z.string().describe('the answer in plain words'),
    ...output.shape,
  });
  return { response: { 200: ok } };
}
const describeOnly = () => (data: unknown) => JSON.stringify(data);

function routerOf(app: FastifyInstance, tag: string): Router {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const wrap = async (p: unknown | Promise<unknown>) => ({ ok: true, ...((await p) as object) });
  return {
    post(url, schema, handler, summary, output) {
      const options = { schema: { body: schema, tags: [tag], summary, ...answer('POST', url, output) } };
      typed.post(url, { ...options, serializerCompiler: describeOnly }, (req) => wrap(handler(req.body as never, req)));
    },
    get(url, schema, handler, summary, output) {
      // Path segments validate as `params`, the rest of the same schema as `querystring`, so a
      // default for a query field (e.g. limit) never overrides what the client sent.
      const keys = [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const object = schema as unknown as z.ZodObject | null;
      const mask = Object.fromEntries(keys.map((k) => [k, true])) as Record<string, true>;
      const parts = !object
        ? {}
        : keys.length
          ? { params: object.pick(mask), querystring: object.omit(mask) }
          : { querystring: object };
      const options = { schema: { ...parts, tags: [tag], summary, ...answer('GET', url, output) } };
      typed.get(url, { ...options, serializerCompiler: describeOnly }, (req) =>
        wrap(handler({ ...(req.query as object), ...(req.params as object) } as never, req)),
      );
    },
  };
}

/** A Fastify plugin whose routes are declared through a Router. */
export function routes(tag: string, declare: (r: Router) => void): FastifyPluginAsync {
  return async (app) => declare(routerOf(app, tag));
}
