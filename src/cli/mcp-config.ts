/**
 * `hearth mcp-config <client>`: a ready-to-paste snippet for each MCP client, with the absolute
 * paths of this install (node, dist/src/cli.js) and of the data directory the loaded config
 * resolves to, so a client that spawns `hearth mcp` from any directory opens the same database
 * as the running hub. The HTTP clients get the hub's URL and its token.
 */
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../config/schema.js';
import { isLoopback } from '../config/load.js';
import { invalid } from '../lib/errors.js';
import type { CommandContext } from './context.js';

export const MCP_CLIENTS = ['claude-desktop', 'claude-code', 'openhome', 'home-assistant', 'http'] as const;
export type McpClient = (typeof MCP_CLIENTS)[number];

/** What a stdio client runs: this node, this install's CLI, this data directory (and config file). */
export function stdioLaunch(config: Config, configFile: string | null) {
  const cli = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'cli.js');
  return {
    command: process.execPath,
    args: [cli, 'mcp', ...(configFile ? ['--config', resolve(configFile)] : [])],
    env: { HEARTH_DATA_DIR: resolve(config.data_dir) },
  };
}

/** The hub's base URL as another machine would use it, and a warning when it cannot. */
export function hubUrl(config: Config): { url: string; warning?: string } {
  const { host, port, tls_cert } = config.http;
  const scheme = tls_cert ? 'https' : 'http';
  const wildcard = host === '0.0.0.0' || host === '::' || host === '[::]';
  const shown = wildcard ? hostname() : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const url = `${scheme}://${shown}:${port}`;
  if (!config.http.enabled)
    return { url, warning: 'http.enabled is false: the hub serves no HTTP, so HTTP clients cannot connect' };
  if (isLoopback(host))
    return {
      url,
      warning: `the hub listens on ${host} only: a client on another machine (Home Assistant) needs http.host = "0.0.0.0" and http.token set`,
    };
  return { url };
}

/** POSIX shell quoting for the one command line claude-code gets. */
const sh = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);

export function mcpConfigSnippet(
  client: string,
  config: Config,
  configFile: string | null,
): { text: string; warning?: string } {
  const launch = stdioLaunch(config, configFile);
  const token = config.http.token;
  const { url, warning } = hubUrl(config);
  const servers = (name: string) => `${JSON.stringify({ mcpServers: { [name]: launch } }, null, 2)}\n`;
  switch (client as McpClient) {
    case 'claude-desktop':
      return { text: servers('hearth') };
    case 'openhome':
      // The seed's shape and server name, so abilities written for memory-mcp keep working.
      return { text: servers('memory') };
    case 'claude-code': {
      const env = Object.entries(launch.env).map(([k, v]) => `-e ${sh(`${k}=${v}`)}`);
      return {
        text: `claude mcp add hearth --scope user ${env.join(' ')} -- ${[launch.command, ...launch.args].map(sh).join(' ')}\n`,
      };
    }
    case 'home-assistant': {
      const q = token ? `?token=${encodeURIComponent(token)}` : '';
      const text =
        'Home Assistant → Settings → Devices & services → Add integration → "Model Context Protocol"; enter as the server URL:\n' +
        `  ${url}/sse${q}\n` +
        `(Streamable HTTP works too: ${url}/mcp${q})\n` +
        'Then pick Hearth under your conversation agent\'s "Control Home Assistant" / LLM API options.\n';
      return { text, warning };
    }
    case 'http': {
      const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
      return {
        text: `${JSON.stringify({ mcpServers: { hearth: { type: 'http', url: `${url}/mcp`, ...(headers && { headers }) } } }, null, 2)}\n`,
        warning,
      };
    }
    default:
      throw invalid(`mcp-config: unknown client "${client}"; one of ${MCP_CLIENTS.join(', ')}`);
  }
}

export async function mcpConfigCommand({ config, file, args }: CommandContext): Promise<number> {
  if (!args[0]) throw invalid(`mcp-config: name the client: ${MCP_CLIENTS.join(', ')}`);
  const { text, warning } = mcpConfigSnippet(args[0], config, file);
  process.stdout.write(text);
  if (warning) process.stderr.write(`hearth mcp-config: note: ${warning}\n`);
  return 0;
}
