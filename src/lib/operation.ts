/**
 * An operation, declared once (issue #36): its name, HTTP method and path, MCP tool name, input and
 * output schemas, summary and description, annotations and the service call. The doors derive
 * everything from it — `http/operation-routes.ts` the route and its /docs entry (the response schema
 * beside the route), `mcp/operation-tools.ts` the tool — and so do `docs/mcp-tools.md`, the test
 * helpers' tool list and the fuzz seeds (its `example`). A tier lists its operations in `<tier>.operations.ts`
 * (`operationTable`);
 * `src/operations.ts` lists the tiers. Adding an operation over both doors touches the tier's files only.
 *
 * lib imports nothing of the hub: `Svc` is the slice of the services an operation calls, and the
 * actor is a string the tier narrows.
 */
import type { z } from 'zod';

export type Annotations = { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };

/** Who calls: 'http' over HTTP, the MCP door's actor ('mcp') over MCP. */
export interface CallContext {
  actor: string;
}

export interface Operation<Svc = never, S extends z.ZodObject = z.ZodObject> {
  /** The operation's name, and its MCP tool name unless `mcp` is false. */
  name: string;
  /** Absent: MCP only. GET reads the input from the query string (path segments `:name` as params). */
  http?: { method: 'GET' | 'POST'; path: string };
  /** false: HTTP only. */
  mcp?: false;
  input: S;
  /** What it answers besides `ok: true` (describe-only: answers are serialised as they are). */
  output?: z.ZodObject;
  /** One line, for /docs. */
  summary: string;
  /** For the assistant that calls the tool: when to call it, what comes back. */
  description: string;
  annotations?: Annotations;
  /** A valid input: the fuzz tests' seed and the docs' example. */
  example?: z.input<S>;
  call: (services: Svc, input: z.infer<S>, ctx: CallContext) => unknown;
}

/** A tier's operations, with their /docs tag. */
export interface OperationTable<Svc = never> {
  tag: string;
  operations: readonly Operation<Svc>[];
}

/** Declares one operation; its `call` is typed by its input schema. */
export function operation<Svc, S extends z.ZodObject>(op: Operation<Svc, S>): Operation<Svc> {
  return op as unknown as Operation<Svc>;
}

/** Declares one operation of a table whose services are `Svc` (`call` gets them typed). */
export type Declare<Svc> = <S extends z.ZodObject>(op: Operation<Svc, S>) => Operation<Svc>;

/**
 * A tier's table: `operationTable<Svc>('tag', (op) => [op({...}), …])`. The services the tier calls
 * are named once, in `Svc`, instead of in every operation's `call`.
 */
export function operationTable<Svc>(tag: string, list: (op: Declare<Svc>) => Operation<Svc>[]): OperationTable<Svc> {
  return { tag, operations: list(operation) };
}
