/**
 * Fake Ollama and OpenAI-compatible servers on 127.0.0.1:0 that speak the real wire APIs, so tests
 * run the real client code (the `ollama` npm client, our fetch code) end to end without a model.
 *
 *   const fake = await startFakeOllama({ chat: (req) => JSON.stringify({ temp: 99 }) });
 *   try { ... fake.url ... fake.requests ... } finally { await fake.close(); }
 *
 * `fake.options` is live: tests may flip `fail`/`hang` between calls.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake saw it (body parsed as JSON when possible). */
export interface FakeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A chat request, normalised across both wire formats. */
export interface FakeChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  /** Ollama `format: 'json'` or OpenAI `response_format: {type: 'json_object'}`. */
  json: boolean;
  temperature?: number;
  /** The raw request body. */
  body: any;
}

type Predicate = boolean | ((req: FakeRequest) => boolean);

export interface FakeAiOptions {
  /** Length of returned vectors (default 16). */
  dim?: number;
  /** Vector for one input text (default: unnormalised hashed bag of words, see `fakeEmbedding`). */
  embed?: (text: string, index: number) => number[];
  /** Assistant content for a chat request (default: echoes the last user message, `{}`-wrapped in json mode). */
  chat?: (req: FakeChatRequest) => string | Promise<string>;
  /** Answer with `failStatus` (default 500) instead of working. */
  fail?: Predicate;
  failStatus?: number;
  /** Error body; default a provider-shaped JSON error. A function sees the request (e.g. to echo headers). */
  failBody?: string | ((req: FakeRequest) => string);
  /** Never answer (for timeout tests); `close()` cuts the connection. */
  hang?: Predicate;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Return vectors of this length instead of `dim`. */
  wrongDim?: number;
  /** OpenAI only: return `data` in reverse order (clients must sort by `index`). */
  reverseOrder?: boolean;
  /** Answer 401 unless `Authorization: Bearer <requireKey>` is sent. */
  requireKey?: string;
  /** Model names listed by `/api/tags` and `/v1/models`. */
  models?: string[];
}

export interface FakeAi {
  /** Origin, e.g. `http://127.0.0.1:43123` (no `/v1`; append it yourself for OpenAI if wanted). */
  url: string;
  port: number;
  requests: FakeRequest[];
  options: FakeAiOptions;
  close(): Promise<void>;
}

/** Deterministic unnormalised embedding: word counts hashed into `dim` buckets, plus a bias at 0. */
export function fakeEmbedding(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  v[0] = 0.5;
  for (const w of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 0x811c9dc5;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 0x01000193);
    v[(h >>> 0) % dim] += 1;
  }
  return v;
}

type Kind = 'ollama' | 'openai';

function test(p: Predicate | undefined, req: FakeRequest): boolean {
  return typeof p === 'function' ? p(req) : !!p;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json' }).end(text);
}

function embedAll(o: FakeAiOptions, inputs: string[]): number[][] {
  return inputs.map((t, i) => {
    if (o.wrongDim !== undefined) return fakeEmbedding(t, o.wrongDim);
    return o.embed ? o.embed(t, i) : fakeEmbedding(t, o.dim ?? 16);
  });
}

function lastUser(req: FakeChatRequest): string {
  return [...req.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
}

async function chatContent(o: FakeAiOptions, req: FakeChatRequest): Promise<string> {
  if (o.chat) return o.chat(req);
  return req.json ? JSON.stringify({ echo: lastUser(req) }) : `echo: ${lastUser(req)}`;
}

async function route(kind: Kind, o: FakeAiOptions, req: FakeRequest, res: ServerResponse): Promise<void> {
  const models = o.models ?? [];
  const b = req.body ?? {};
  const inputs = (input: unknown): string[] => (Array.isArray(input) ? input.map(String) : [String(input ?? '')]);
  if (kind === 'ollama') {
    if (req.method === 'GET' && req.path === '/api/tags') {
      return send(res, 200, { models: models.map((name) => ({ name, model: name, size: 1 })) });
    }
    if (req.method === 'POST' && req.path === '/api/embed') {
      return send(res, 200, { model: b.model, embeddings: embedAll(o, inputs(b.input)) });
    }
    if (req.method === 'POST' && req.path === '/api/chat') {
      const chat: FakeChatRequest = {
        model: b.model,
        messages: b.messages ?? [],
        json: b.format === 'json',
        temperature: b.options?.temperature,
        body: b,
      };
      const content = await chatContent(o, chat);
      return send(res, 200, {
        model: b.model,
        created_at: new Date().toISOString(),
        message: { role: 'assistant', content },
        done: true,
        done_reason: 'stop',
      });
    }
    return send(res, 404, { error: `404 page not found: ${req.path}` });
  }
  if (req.method === 'GET' && req.path === '/v1/models') {
    return send(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'fake' })) });
  }
  if (req.method === 'POST' && req.path === '/v1/embeddings') {
    const data = embedAll(o, inputs(b.input)).map((embedding, index) => ({ object: 'embedding', index, embedding }));
    if (o.reverseOrder) data.reverse();
    return send(res, 200, { object: 'list', model: b.model, data });
  }
  if (req.method === 'POST' && req.path === '/v1/chat/completions') {
    const chat: FakeChatRequest = {
      model: b.model,
      messages: b.messages ?? [],
      json: b.response_format?.type === 'json_object',
      temperature: b.temperature,
      body: b,
    };
    const content = await chatContent(o, chat);
    return send(res, 200, {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: b.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    });
  }
  return send(res, 404, { error: { message: `Unknown path ${req.path}`, type: 'invalid_request_error' } });
}

async function startFake(kind: Kind, options: FakeAiOptions): Promise<FakeAi> {
  const requests: FakeRequest[] = [];
  const server = createServer((r, res) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = raw;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        // keep the raw text: a malformed body is itself worth asserting on
      }
      const req: FakeRequest = {
        method: r.method ?? 'GET',
        path: (r.url ?? '/').split('?')[0],
        headers: r.headers,
        body,
      };
      requests.push(req);
      const o = fake.options;
      if (test(o.hang, req)) return; // hold the socket open until the client gives up or close()
      const answer = async () => {
        if (o.requireKey !== undefined && r.headers.authorization !== `Bearer ${o.requireKey}`) {
          return send(
            res,
            401,
            kind === 'ollama'
              ? { error: 'unauthorized' }
              : { error: { message: 'Invalid API key', type: 'invalid_request_error' } },
          );
        }
        if (test(o.fail, req)) {
          const body = typeof o.failBody === 'function' ? o.failBody(req) : o.failBody;
          const fallback =
            kind === 'ollama'
              ? { error: 'fake ollama failure' }
              : { error: { message: 'fake openai failure', type: 'server_error' } };
          return send(res, o.failStatus ?? 500, body ?? fallback);
        }
        await route(kind, o, req, res);
      };
      const run = () => answer().catch((e: unknown) => send(res, 500, { error: String(e) }));
      if (o.delayMs) setTimeout(run, o.delayMs);
      else void run();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const fake: FakeAi = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // hung requests would keep close() waiting forever
        server.close(() => resolve());
      }),
  };
  return fake;
}

/** A fake Ollama: `GET /api/tags`, `POST /api/embed`, `POST /api/chat` (non-streaming). */
export function startFakeOllama(options: FakeAiOptions = {}): Promise<FakeAi> {
  return startFake('ollama', options);
}

/** A fake OpenAI-compatible server: `GET /v1/models`, `POST /v1/embeddings`, `POST /v1/chat/completions`. */
export function startFakeOpenAi(options: FakeAiOptions = {}): Promise<FakeAi> {
  return startFake('openai', options);
}

/** A local port that was free a moment ago and now has no listener: connections are refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
