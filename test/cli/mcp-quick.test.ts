/**
 * `hearth mcp` starts quickly for the MCP client that waits on it: when the data dir records which
 * embedder made its vectors, `auto` takes that one without probing Ollama, and the neural encoder is
 * built only after `initialize` (lazily). Timings are in docs/deploy-pi.md, not asserted here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { createAi, type AiConfig } from '../../src/ai/providers.js';
import type { UseLiteEmbedder } from '../../src/ai/use-lite.js';
import { loadConfig } from '../../src/config/load.js';
import { createHub } from '../../src/main.js';
import { startFakeOllama } from '../helpers/fake-ai.js';
import { tempDir } from '../helpers/hub.js';
import { CLI, cliEnv } from '../helpers/cli.js';

/** A data dir whose embed_meta names `provider`/`model`/`dim`, as a hub with that embedder leaves it. */
async function dataDirMadeBy(provider: string, model: string, dim: number): Promise<string> {
  const dir = join(tempDir('hearth-mcp-quick-'), 'data');
  const { config } = loadConfig({ env: { HEARTH_DATA_DIR: dir }, configPath: undefined });
  const embedder = {
    provider,
    model,
    dim,
    fingerprint: `${model}:${dim}`,
    embed: async (t: string[]) => t.map(() => new Float32Array(dim).fill(1 / Math.sqrt(dim))),
    ping: async () => true,
  };
  const hub = await createHub({
    config: { ...config, http: { ...config.http, enabled: false } },
    ai: { embedder, llm: null },
    scheduler: false,
  });
  await hub.stop();
  return dir;
}

async function connect(dataDir: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: { PATH: process.env.PATH ?? '', HEARTH_DATA_DIR: dataDir, HEARTH_MQTT_MODE: 'off', ...env },
    cwd: tempDir(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'test-quick', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/**
 * `hearth mcp` on dataDir, once it has answered initialize and one remember: a hub with work to close.
 * `exited` resolves with the exit code and everything the process wrote to stderr.
 */
async function busyMcp(dataDir: string) {
  const child = spawn(process.execPath, [CLI, 'mcp'], {
    env: cliEnv(dataDir),
    cwd: tempDir(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  let out = '';
  const answered = new Promise<void>((resolve) =>
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('"id":2')) resolve();
    }),
  );
  const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'remember', arguments: { entity_name: 'Anna', fact: 'Anna drinks green tea' } },
  });
  await answered;
  return { child, exited };
}

describe('hearth mcp quick start', () => {
  // Closing stops the hub once: stopping closes the transport, whose end must not stop it again (that
  // recursed until the stack overflowed, logged as "Exception in PromiseRejectCallback" on stderr).
  it.each([
    ['closing stdin', (c: ChildProcess) => c.stdin!.end()],
    ['SIGTERM', (c: ChildProcess) => c.kill('SIGTERM')],
  ])(
    'stdio is a door of the hub: %s stops the hub once (WAL checkpointed) and the process exits 0',
    async (_, close) => {
      const dataDir = await dataDirMadeBy('use-lite', 'universal-sentence-encoder-lite', 512);
      const { child, exited } = await busyMcp(dataDir);
      close(child);
      const { code, stderr } = await exited;
      expect(stderr).not.toMatch(/Maximum call stack|PromiseRejectCallback|close failed/);
      expect(code).toBe(0);
      const wal = join(dataDir, 'hearth.db-wal');
      expect(existsSync(wal) ? statSync(wal).size : 0).toBe(0);
    },
    120_000,
  );

  it('auto with a data dir made by Ollama: connects and lists tools without probing Ollama', async () => {
    const fake = await startFakeOllama({ dim: 8, models: ['nomic-embed-text'] });
    const dataDir = await dataDirMadeBy('ollama', 'nomic-embed-text', 8);
    const { client, stderr } = await connect(dataDir, {
      MEMORY_AI_PROVIDER: 'auto',
      MEMORY_AI_BASE_URL: fake.url,
      MEMORY_EMBED_MODEL: 'nomic-embed-text',
      MEMORY_EMBED_DIM: '8',
    });
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(30);
      expect(fake.requests).toEqual([]);
      expect(stderr()).toContain("the data dir's vectors are ollama's (nomic-embed-text); using it without probing");
      // Ollama is then used as configured: the first remember embeds through it.
      const r = await client.callTool({
        name: 'remember',
        arguments: { entity_name: 'Brian', fact: 'Brian likes tea', category: 'preference' },
      });
      expect(r.isError).toBeFalsy();
      expect(fake.requests.map((q) => q.path)).toContain('/api/embed');
    } finally {
      await client.close();
      await fake.close();
    }
  }, 60_000);

  it('auto with a data dir made by use-lite: answers initialize before building the encoder, then recalls with it', async () => {
    const fake = await startFakeOllama();
    const dataDir = await dataDirMadeBy('use-lite', 'universal-sentence-encoder-lite', 512);
    const { client, stderr } = await connect(dataDir, { MEMORY_AI_PROVIDER: 'auto', MEMORY_AI_BASE_URL: fake.url });
    try {
      expect((await client.listTools()).tools.length).toBeGreaterThan(30);
      expect(fake.requests).toEqual([]);
      expect(stderr()).toContain(
        "the data dir's vectors are use-lite's (universal-sentence-encoder-lite); using it without probing",
      );
      await client.callTool({
        name: 'remember',
        arguments: { entity_name: 'Brian', fact: 'Brian keeps the bedroom at 68F at night', category: 'preference' },
      });
      const r = await client.callTool({ name: 'recall', arguments: { query: 'how warm does Brian like his bedroom' } });
      expect(JSON.stringify(r.structuredContent ?? r.content)).toContain('68F');
    } finally {
      await client.close();
      await fake.close();
    }
  }, 120_000);
});

describe('createAi quick start', () => {
  const cfg = (baseUrl: string): AiConfig => ({
    provider: 'auto',
    baseUrl,
    embedModel: 'nomic-embed-text',
    embedDim: 768,
    llmModel: 'llama3.2',
    timeoutSeconds: 5,
  });
  /** A use-lite stand-in that records when it is built (a real one starts a worker thread and loads the model). */
  const recorder = () => {
    const built: string[] = [];
    const useLite = () => {
      built.push('built');
      return {
        provider: 'use-lite',
        model: 'universal-sentence-encoder-lite',
        dim: 512,
        fingerprint: 'x',
        ready: new Promise<boolean>(() => {}),
        embed: async () => [],
        ping: async () => true,
      } as unknown as UseLiteEmbedder;
    };
    return { built, make: { useLite } };
  };

  it('a stored use-lite fingerprint: no probe, nothing built until warm() or first use', async () => {
    const fake = await startFakeOllama();
    try {
      const { built, make } = recorder();
      const ai = await createAi(cfg(fake.url), make, {
        stored: { provider: 'use-lite', model: 'universal-sentence-encoder-lite', dim: 512 },
      });
      expect(ai.embedder.provider).toBe('use-lite');
      expect(built).toEqual([]);
      expect(fake.requests).toEqual([]);
      ai.warm!();
      expect(built).toEqual(['built']);
      await ai.embedder.embed(['x']);
      expect(built).toEqual(['built']);
    } finally {
      await fake.close();
    }
  });

  it('nothing stored yet: probes as before', async () => {
    const fake = await startFakeOllama({ models: ['nomic-embed-text'] });
    try {
      const ai = await createAi(cfg(fake.url), recorder().make, { stored: undefined });
      expect(ai.embedder.provider).toBe('ollama');
      expect(fake.requests.map((r) => r.path)).toEqual(['/api/tags']);
    } finally {
      await fake.close();
    }
  });
});
