/**
 * One MCP server per hub for every POST /mcp (issue #36): the SDK's stateless Streamable HTTP
 * transport serves one request and must then be thrown away with its Server, and converts each Node
 * request to a web Request and back. Here the hub's Server is connected once to this transport, and
 * each HTTP request hands it its JSON-RPC messages. Request ids are renumbered on the way in (two
 * clients may both send id 1) and restored on the way out, so each answer goes back to its own request.
 *
 * The HTTP rules are the SDK transport's in JSON-response mode (`enableJsonResponse`): 406 without an
 * Accept of both JSON and event streams, 415 for a body that is not JSON, 400 for what is not JSON-RPC,
 * a batch over 100, two initialize requests in one batch or an unsupported `mcp-protocol-version`;
 * 202 with no body when only notifications or responses came; else 200 with the answer, or the answers
 * as an array when a batch held more than one request.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

const MAX_BATCH = 100;

/** What the HTTP door sends back: a status and, unless 202, a JSON body. */
export interface McpAnswer {
  status: number;
  body?: unknown;
}

// Shape checks on messages already parsed as JSON-RPC (the SDK's guards re-parse each with zod).
const isRequest = (m: JSONRPCMessage): m is Extract<JSONRPCMessage, { method: string; id: RequestId }> =>
  'method' in m && 'id' in m;
const isAnswer = (m: JSONRPCMessage): m is Extract<JSONRPCMessage, { id: RequestId }> => !('method' in m) && 'id' in m;
const isInitialize = (m: JSONRPCMessage) => isRequest(m) && m.method === 'initialize';

const refusal = (status: number, code: number, message: string): McpAnswer => ({
  status,
  body: { jsonrpc: '2.0', error: { code, message }, id: null },
});

class DispatchTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private next = 0;
  private readonly waiting = new Map<number, { id: RequestId; settle: (m: JSONRPCMessage) => void }>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /** The server's answers, back to the request that asked. Its notifications have no stream to go to. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (!isAnswer(message)) return;
    const wait = this.waiting.get(message.id as number);
    if (!wait) return;
    this.waiting.delete(message.id as number);
    wait.settle({ ...message, id: wait.id });
  }

  /** Hands the messages to the server; resolves with the answers to its requests, in their order. */
  dispatch(messages: JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
    const answers: Promise<JSONRPCMessage>[] = [];
    for (const m of messages) {
      if (!isRequest(m)) {
        // A cancellation names a request id of the client's; renumbered, it would name another
        // client's request (and the server would never answer that one). A stateless POST cannot
        // reach a request of an earlier POST anyway.
        if (!('method' in m && m.method === 'notifications/cancelled')) this.onmessage?.(m);
        continue;
      }
      const inner = ++this.next;
      answers.push(new Promise((settle) => this.waiting.set(inner, { id: m.id, settle })));
      this.onmessage?.({ ...m, id: inner });
    }
    return Promise.all(answers);
  }
}

function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

/** Answers POST /mcp requests from one server, connected once. */
export class McpHttpDispatch {
  private readonly transport = new DispatchTransport();
  private readonly connected: Promise<void>;

  constructor(private readonly server: Server) {
    this.connected = server.connect(this.transport);
  }

  async handle(headers: Record<string, string | string[] | undefined>, body: unknown): Promise<McpAnswer> {
    const accept = String(headers.accept ?? '');
    if (!accept.includes('application/json') || !accept.includes('text/event-stream'))
      return refusal(406, -32000, 'Not Acceptable: Client must accept both application/json and text/event-stream');
    if (!isJsonMediaType(headers['content-type'] as string | undefined))
      return refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    if (Array.isArray(body) && body.length > MAX_BATCH)
      return refusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
    const parsed = (Array.isArray(body) ? body : [body]).map((m) => JSONRPCMessageSchema.safeParse(m));
    if (parsed.some((p) => !p.success)) return refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
    const messages = parsed.map((p) => p.data as JSONRPCMessage);
    const inits = messages.filter(isInitialize).length;
    if (inits > 1 || (inits === 1 && messages.length > 1))
      return refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed');
    const version = headers['mcp-protocol-version'];
    if (!inits && version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(String(version)))
      return refusal(
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      );
    await this.connected;
    const answers = await this.transport.dispatch(messages);
    if (!answers.length) return { status: 202 };
    return { status: 200, body: answers.length === 1 ? answers[0] : answers };
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
