/**
 * Issue #26 item 13: an AI backend's answer is read only up to a cap. A local server speaking the
 * OpenAI and Ollama paths streams an endless JSON body (no content-length) or declares a huge one;
 * every client (OpenAI-compatible and Ollama, chat and embeddings) fails with a 503 naming the cap,
 * and the hub stops reading — the server sees the connection closed long before it is done.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createOllamaEmbedder, createOllamaLlm } from '../../src/ai/ollama.js';
import { createOpenAiEmbedder, createOpenAiLlm } from '../../src/ai/openai.js';
import { HubError } from '../../src/lib/errors.js';

const CAP = 256 * 1024;
const TOTAL = 64 * 1024 * 1024; // what the server would send if nobody stopped it
const CHUNK = Buffer.alloc(64 * 1024, 'a');

interface Flood {
  url: string;
  sent: () => number;
  closed: Promise<void>;
}
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

/** Answers every request with a JSON string that never seems to end; `declare` sends content-length. */
async function flood(declare = false): Promise<Flood> {
  let sent = 0;
  let onClose!: () => void;
  const closed = new Promise<void>((r) => (onClose = r));
  const srv = http.createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declare && { 'content-length': String(TOTAL) }) });
      res.on('close', onClose);
      res.write('{"message":{"role":"assistant","content":"');
      while (sent < TOTAL && !res.destroyed) {
        sent += CHUNK.length;
        if (!res.write(CHUNK))
          await new Promise((r) => {
            res.once('drain', r);
            res.once('close', r);
          });
      }
      res.end('"}}');
    });
  });
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  return { url, sent: () => sent, closed };
}

async function failure(p: Promise<unknown>): Promise<HubError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(HubError);
  return e as HubError;
}

const clients = {
  'openai chat': (url: string) =>
    createOpenAiLlm({ baseUrl: url, model: 'm', timeoutMs: 20_000, maxResponseBytes: CAP }).chat([
      { role: 'user', content: 'hi' },
    ]),
  'openai embed': (url: string) =>
    createOpenAiEmbedder({ baseUrl: url, model: 'm', dim: 4, timeoutMs: 20_000, maxResponseBytes: CAP }).embed(['hi']),
  'ollama chat': (url: string) =>
    createOllamaLlm({ baseUrl: url, model: 'm', timeoutMs: 20_000, maxResponseBytes: CAP }).chat([
      { role: 'user', content: 'hi' },
    ]),
  'ollama embed': (url: string) =>
    createOllamaEmbedder({ baseUrl: url, model: 'm', dim: 4, timeoutMs: 20_000, maxResponseBytes: CAP }).embed(['hi']),
};

describe('the answer of an AI backend is capped', () => {
  for (const [name, call] of Object.entries(clients)) {
    it(`${name}: a streamed answer past the cap fails with 503 and the connection is closed early`, async () => {
      const f = await flood();
      const e = await failure(call(f.url));
      expect(e.status).toBe(503);
      expect(e.message).toContain(`larger than ${CAP} bytes, the most the hub reads from an AI backend`);
      await f.closed;
      expect(f.sent()).toBeLessThan(TOTAL / 4);
    });

    it(`${name}: a declared content-length past the cap is refused before reading`, async () => {
      const f = await flood(true);
      const e = await failure(call(f.url));
      expect(e.status).toBe(503);
      expect(e.message).toContain('the most the hub reads from an AI backend');
      await f.closed;
      expect(f.sent()).toBeLessThan(TOTAL / 4);
    });
  }
});
