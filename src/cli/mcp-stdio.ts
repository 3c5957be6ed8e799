/** `hearth mcp`: MCP over stdio (the hub's one door then: mcp/stdio.ts). stdout is the protocol, so everything else goes to stderr. */
import { createHub } from '../main.js';
import type { CommandContext } from './context.js';
import { join } from 'node:path';
import { quitOnce } from './quit.js';

export async function runMcpStdio({ config, file }: CommandContext): Promise<undefined> {
  // The stdio server shares the database with a running `hearth serve` (WAL allows it) but opens no
  // listeners. An MCP client waits for it on every start: quick start (no Ollama probe when the data dir
  // records its embedder, no HTTP app; timings in docs/deploy-pi.md), and the encoder starts
  // loading only once the client's `initialize` has been answered.
  // Stops once, whoever asks first: stdin's end, the transport ending, SIGTERM or SIGINT (cli/quit.ts).
  const quit = quitOnce(
    () => hub.stop(),
    (line) => process.stderr.write(`hearth mcp: ${line}\n`),
  );
  const hub = await createHub({
    config: { ...config, http: { ...config.http, enabled: false } },
    quickStart: true,
    onStdioClosed: () => void quit('closed'),
  });
  // An MCP client shows only "connection closed" on failure: stderr (its log) names what was opened.
  process.stderr.write(
    `hearth mcp: database ${join(config.data_dir, 'hearth.db')} (config ${file ?? 'none: defaults'})\n`,
  );
  for (const w of [...hub.notes, ...hub.warnings]) process.stderr.write(`hearth mcp: ${w}\n`);
  process.stdin.on('end', () => void quit('end'));
  process.on('SIGINT', () => void quit('SIGINT'));
  process.on('SIGTERM', () => void quit('SIGTERM'));
  await hub.start();
  return undefined;
}
