/**
 * MCP tools derived from an operation table (lib/operation.ts): each operation not marked `mcp: false`
 * becomes a tool in the table, named and described by the operation, validated by its input schema.
 */
import type { OperationTable } from '../lib/operation.js';
import type { ToolTable } from './tool.js';

export function operationTools<Svc>(table: ToolTable, ops: OperationTable<Svc>, services: Svc, actor: string): void {
  for (const op of ops.operations) {
    if (op.mcp === false) continue;
    table.add({
      name: op.name,
      description: op.description,
      schema: op.input,
      handler: (input) => op.call(services, input as never, { actor }),
      annotations: op.annotations,
    });
  }
}
