/** `hearth mcp`: MCP over stdio. stdout is the protocol, so everything else goes to stderr. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '../mcp/server.js';
import { createHub } from '../main.js';
import type { CommandContext } from './context.js';
import { join } from 'node:path';

export async function runMcpStdio({ config, file }: CommandContext): Promise<undefined> {
  // The stdio server shares the database with a running `hearth serve` (WAL allows it) but opens no
  // listeners. An MCP client waits for it on every start: quick start (no Ollama probe when the data dir
  // records its embedder, no HTTP app; timings in docs/deploy-pi.md), and the encoder starts
  // loading only once the client's `initialize` has been answered.
  const hub = await createHub({ config: { ...config, http: { ...config.http, enabled: false } }, quickStart: true });
  // An MCP client shows only "connection closed" on failure: stderr (its log) names what was opened.
  process.stderr.write(
    `hearth mcp: database ${join(config.data_dir, 'hearth.db')} (config ${file ?? 'none: defaults'})\n`,
  );
  for (const w of [...hub.notes, ...hub.warnings]) process.stderr.write(`hearth mcp: ${w}\n`);
  const server = createMcpServer(hub.services, 'mcp');
  server.oninitialized = () => hub.warm();
  const transport = new StdioServerTransport();
  transport.onclose = () => void hub.stop().then(() => process.exit(0));
  process.stdin.on('end', () => void hub.stop().then(() => process.exit(0)));
  await server.connect(transport);
  return undefined;
}
