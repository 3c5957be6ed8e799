/**
 * Registers a tool whose input is the shared zod schema and whose result is JSON text plus
 * `structuredContent` (SPEC §8). Errors come back as tool errors carrying the same codes as HTTP.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import { fromStorageError, HubError, isHubError } from '../lib/errors.js';
import { parseInput } from '../lib/validation.js';

export type ToolResult = { content: { type: 'text'; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

export function errorResult(e: unknown): ToolResult {
  const known = isHubError(e) ? e : fromStorageError(e);
  const err = known ?? new HubError('internal', 'internal error; see the hub log');
  if (!known) console.error('mcp tool failed:', e);
  const body = { ok: false, error: err.code, message: err.message };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, isError: true };
}

export function okResult(value: unknown): ToolResult {
  const body = { ok: true, ...(value as object) };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
}

/**
 * The SDK validates arguments against `inputSchema` before the handler and answers with its own
 * wording; we want the one validation path and error shape of every door, so its pre-check is
 * turned off here and `parseInput` runs the same schema inside the handler.
 */
export function useOwnValidation(server: McpServer): void {
  (server as unknown as { validateToolInput: (t: unknown, args: unknown) => Promise<unknown> }).validateToolInput = async (
    _tool,
    args,
  ) => args; // absent arguments: `check` reads them as {} or names the fields the tool needs
}

export function tool<S extends z.ZodObject>(
  server: McpServer,
  name: string,
  description: string,
  schema: S,
  handler: (input: z.infer<S>) => unknown | Promise<unknown>,
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean },
): void {
  // The object itself, not its shape: the listed JSON Schema then says what zod checks
  // (`additionalProperties: false`: unknown arguments are refused, as over HTTP).
  server.registerTool(name, { description, inputSchema: schema as z.ZodObject, annotations }, async (args: unknown) => {
    try {
      return okResult(await handler(parseInput(schema, args, 'arguments')));
    } catch (e) {
      return errorResult(e);
    }
  });
}
