/**
 * The tool table: each tool's name, description, shared zod input schema and handler. The server
 * (server.ts) lists it and dispatches calls from it through the SDK's public request handlers, so
 * arguments go through the one validation path of every door (`parseInput`, lib/validation.ts) and
 * errors come back as tool errors carrying the same codes as HTTP (SPEC §8).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { fromStorageError, HubError, isHubError } from '../lib/errors.js';
import { parseInput } from '../lib/validation.js';

export type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};
export type ToolAnnotations = { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean };

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

export interface ToolDef {
  name: string;
  description: string;
  schema: z.ZodObject;
  handler: (input: unknown) => unknown | Promise<unknown>;
  annotations?: ToolAnnotations;
}

/** The tools one server offers, in registration order (the order tools/list answers in). */
export class ToolTable {
  readonly tools = new Map<string, ToolDef>();

  add(def: ToolDef): void {
    if (this.tools.has(def.name)) throw new Error(`MCP tool ${def.name} is registered twice`);
    this.tools.set(def.name, def);
  }

  /** tools/call: validation by the tool's zod schema inside, so a bad argument is a tool error naming the field. */
  async call(name: string, args: unknown): Promise<CallToolResult> {
    const t = this.tools.get(name);
    // As the SDK's McpServer answered an unknown name: a tool error, not a protocol error.
    if (!t) return { content: [{ type: 'text', text: `MCP error -32602: Tool ${name} not found` }], isError: true };
    try {
      return okResult(await t.handler(parseInput(t.schema, args, 'arguments'))); // absent arguments: `check` reads them as {} or names the fields needed
    } catch (e) {
      return errorResult(e);
    }
  }
}
