/** `hearth mcp`: MCP over stdio (the hub's one door then: mcp/stdio.ts). stdout is the protocol, so everything else goes to stderr. */
import { createHub } from '../main.js';
import type { CommandContext } from './context.js';
import { join } from 'node:path';

/** How long `hearth mcp` waits for the hub to stop before it exits anyway. */
export const STOP_WAIT_MS = 9000;

export async function runMcpStdio({ config, file }: CommandContext): Promise<undefined> {
  // The stdio server shares the database with a running `hearth serve` (WAL allows it) but opens no
  // listeners. An MCP client waits for it on every start: quick start (no Ollama probe when the data dir
  // records its embedder, no HTTP app; timings in docs/deploy-pi.md), and the encoder starts
  // loading only once the client's `initialize` has been answered.
  // Stops once, whoever asks first: stdin's end, the transport ending, SIGTERM or SIGINT. The flag is
  // set before stopping starts, so an ask made while the hub stops returns at once.
  // A stop that fails or hangs still ends the process, in one line (as serve's does; the WAL keeps
  // every commit).
  let quitting = false;
  const quit = async () => {
    if (quitting) return;
    quitting = true;
    const bail = (why: string) => (process.stderr.write(`hearth mcp: ${why}\n`), process.exit(1));
    setTimeout(() => bail(`stopping took over ${STOP_WAIT_MS / 1000} s; exiting`), STOP_WAIT_MS).unref();
    try {
      await hub.stop();
    } catch (e) {
      return bail(`stopping failed: ${(e as Error).message}`);
    }
    process.exit(0);
  };
  const hub = await createHub({
    config: { ...config, http: { ...config.http, enabled: false } },
    quickStart: true,
    onStdioClosed: () => void quit(),
  });
  // An MCP client shows only "connection closed" on failure: stderr (its log) names what was opened.
  process.stderr.write(
    `hearth mcp: database ${join(config.data_dir, 'hearth.db')} (config ${file ?? 'none: defaults'})\n`,
  );
  for (const w of [...hub.notes, ...hub.warnings]) process.stderr.write(`hearth mcp: ${w}\n`);
  process.stdin.on('end', () => void quit());
  process.on('SIGINT', () => void quit());
  process.on('SIGTERM', () => void quit());
  await hub.start();
  return undefined;
}
