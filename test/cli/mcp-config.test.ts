import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { tempDir } from '../helpers/hub.js';
import { startServe, type ServeProcess } from '../helpers/process.js';
import { ALL_TOOLS, toolNames } from '../helpers/tools.js';
import { shellWord } from '../helpers/shell.js';

const run = promisify(execFile);
const CLI = resolve('dist/src/cli.js');
const TOKEN = 'cfg-token';
let dir: string;
let dataDir: string;
let hub: ServeProcess;
let env: Record<string, string>;

/** `hearth mcp-config <client>` run from another directory, as a user would after install. */
const mcpConfig = (client: string) =>
  run(process.execPath, [CLI, 'mcp-config', client], { cwd: tmpdir(), env }).then((r) => r.stdout);

beforeAll(async () => {
  dir = tempDir('hearth-mcpcfg-');
  dataDir = join(dir, 'data');
  hub = await startServe(dataDir, { HEARTH_API_TOKEN: TOKEN });
  env = {
    PATH: process.env.PATH ?? '',
    HEARTH_DATA_DIR: dataDir,
    HEARTH_API_TOKEN: TOKEN,
    HEARTH_HTTP_PORT: new URL(hub.http).port,
  };
}, 60_000);
afterAll(async () => {
  hub?.child.kill('SIGTERM');
  await new Promise((r) => hub?.child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
});

const recallViaHub = async (query: string) => {
  const res = await fetch(`${hub.http}/recall`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, mode: 'keyword' }),
  });
  return ((await res.json()) as { results: { fact: string }[] }).results.map((r) => r.fact);
};

async function viaStdio(launch: { command: string; args: string[]; env: Record<string, string> }, fact: string) {
  const client = new Client({ name: 'cfg-test', version: '1' });
  // The client's own working directory differs from the hub's: the snippet's absolute paths must carry it.
  await client.connect(
    new StdioClientTransport({
      ...launch,
      env: { PATH: env.PATH, MEMORY_AI_PROVIDER: 'local', ...launch.env },
      cwd: tmpdir(),
      stderr: 'ignore',
    }),
  );
  const r = await client.callTool({ name: 'remember', arguments: { entity_name: 'Brian', fact } });
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  await client.close();
}

describe('hearth mcp-config <client>', () => {
  it("claude-desktop: absolute node, CLI and data dir; the snippet opens the running hub's database", async () => {
    const { mcpServers } = JSON.parse(await mcpConfig('claude-desktop'));
    const launch = mcpServers.hearth;
    expect(launch.command).toBe(process.execPath);
    expect(launch.args).toEqual([CLI, 'mcp']);
    expect(isAbsolute(launch.env.HEARTH_DATA_DIR)).toBe(true);
    expect(launch.env.HEARTH_DATA_DIR).toBe(dataDir);
    await viaStdio(launch, 'Brian waters the ferns on Sundays');
    expect(await recallViaHub('ferns')).toContain('Brian waters the ferns on Sundays');
  });

  it('openhome: the seed\'s mcpServers shape under its server name "memory"', async () => {
    const { mcpServers } = JSON.parse(await mcpConfig('openhome'));
    expect(Object.keys(mcpServers)).toEqual(['memory']);
    await viaStdio(mcpServers.memory, 'Brian keeps the spare key under the blue pot');
    expect(await recallViaHub('spare key')).toContain('Brian keeps the spare key under the blue pot');
  });

  it('claude-code: one `claude mcp add` line with the same absolute paths', async () => {
    const line = (await mcpConfig('claude-code')).trim();
    expect(line).toBe(
      `claude mcp add hearth --scope user -e HEARTH_DATA_DIR=${dataDir} -- ${shellWord(process.execPath)} ${shellWord(CLI)} mcp`,
    );
  });

  it('home-assistant: a URL with the token that an SSE-only client can use as is', async () => {
    const out = await mcpConfig('home-assistant');
    const url = /^ {2}(http\S+\/sse\S*)$/m.exec(out)![1];
    expect(url).toBe(`${hub.http}/sse?token=${TOKEN}`);
    expect(out).toContain(`${hub.http}/mcp?token=${TOKEN}`);
    const client = new Client({ name: 'ha-like', version: '1' });
    await client.connect(new SSEClientTransport(new URL(url)));
    expect(toolNames((await client.listTools()).tools)).toEqual(ALL_TOOLS);
    const r = await client.callTool({ name: 'recall', arguments: { query: 'ferns', mode: 'keyword' } });
    expect(JSON.stringify(r.structuredContent)).toContain('ferns on Sundays');
    await client.close();
  });

  it('http: a Streamable HTTP entry with the bearer header', async () => {
    const { mcpServers } = JSON.parse(await mcpConfig('http'));
    expect(mcpServers.hearth).toEqual({
      type: 'http',
      url: `${hub.http}/mcp`,
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    const client = new Client({ name: 'http-cfg', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(mcpServers.hearth.url), {
        requestInit: { headers: mcpServers.hearth.headers },
      }),
    );
    expect(toolNames((await client.listTools()).tools)).toEqual(ALL_TOOLS);
    await client.close();
  });

  it('an unknown or missing client exits 2 naming the choices', async () => {
    const err = await mcpConfig('cursor').catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(
      /unknown client "cursor"; one of claude-desktop, claude-code, openhome, home-assistant, http/,
    );
  });
});
