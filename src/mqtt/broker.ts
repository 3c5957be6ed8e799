/**
 * The embedded MQTT broker (aedes 1.x, MQTT 3.1.1) on a loopback listener by default.
 *
 * Durable acknowledgement: aedes answers a QoS 1 PUBLISH with PUBACK *after* `authorizePublish`
 * calls back (lib/handlers/publish.js runs authorizePublish, then enqueuePublish writes the PUBACK),
 * so the bridge ingests inside authorizePublish and calls back only once the batch is committed.
 * A whole socket read is dispatched concurrently, so many messages share one commit.
 * authorizePublish returns an error only to refuse a client (bad ACL, storage failure): aedes then
 * disconnects it. Bad payloads are never errors here.
 *
 * Accounts: `mqtt.username/password` (all topics) and `[[mqtt.users]]` with publish/subscribe ACLs.
 * `hearth/events/#` is published by Hearth only. A client over `max_msgs_per_sec` is slowed down
 * (its acknowledgement waits for the token bucket), never dropped. Client ids are bound to accounts
 * and wildcard subscriptions allowed within the account's grants (`acl.ts`); packet sizes and
 * unauthenticated connections are capped (`guards.ts`), retained messages too (`retained.ts`), so are
 * the queues of persistent sessions whose client is away (`offline-queue.ts`), and a QoS 2
 * retransmission is stored once (`qos2.ts`).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes, type Client, type PublishPacket } from 'aedes';
import { HubError } from '../lib/errors.js';
import { tokenMatches } from '../lib/token.js';
import {
  accountOf,
  createClientIds,
  mayReceive,
  maySubscribe,
  publishRefusal,
  setAccount,
  type MqttAccount,
} from './acl.js';
import { guardedHandler } from './guards.js';
import { qos2Dedupe } from './qos2.js';
import { boundOfflineQueues, type OfflineQueueLimits } from './offline-queue.js';
import { createRetainedLedger, type RetainedLimits } from './retained.js';

export type { MqttAccount } from './acl.js';

export interface BrokerOptions {
  host: string;
  port: number;
  accounts: MqttAccount[];
  maxMsgsPerSec?: number;
  /** Largest packet after CONNACK (before it: 64 KiB). Default 16 MiB. */
  maxPacketBytes?: number;
  /** Connections that have not completed CONNECT. Default 64. */
  maxPendingConnections?: number;
  retained?: Partial<RetainedLimits>;
  /** What persistent sessions may keep queued while their client is away (`offline-queue.ts`). */
  offlineQueue?: Partial<OfflineQueueLimits>;
  tls?: { cert: string; key: string };
  /**
   * Called for each client publish before it is acknowledged; rejects only when storage failed.
   * Resolving `false` means the bridge refused the message: it is then not retained.
   */
  onPublish(
    topic: string,
    payload: Buffer,
    packet: { retain: boolean; qos: number; clientId: string },
  ): Promise<boolean | void>;
  log?: (msg: string) => void;
}

export interface EmbeddedBroker {
  address: { host: string; port: number };
  publish(topic: string, payload: string | Buffer, opts?: { retain?: boolean; qos?: 0 | 1 }): Promise<void>;
  clients(): number;
  /** Messages held back by the per-client throttle (max_msgs_per_sec) since start: slowed, never dropped. */
  throttled(): number;
  /** Messages and bytes queued for persistent sessions (all, or one client id). */
  queued(clientId?: string): { messages: number; bytes: number };
  close(): Promise<void>;
}

export const BROKER_DEFAULTS = {
  // Zigbee2MQTT's retained bridge/devices runs to a few MB in a large install.
  maxPacketBytes: 16 * 1024 * 1024,
  maxPendingConnections: 64,
  // Generous enough for a home that runs its whole MQTT on Hearth: Zigbee2MQTT's Home Assistant
  // discovery alone retains ~1–2 KB per entity, 8 entities per device.
  retained: {
    maxMessages: 10_000,
    maxBytes: 32 * 1024 * 1024,
    maxMessagesPerAccount: 5_000,
    maxBytesPerAccount: 16 * 1024 * 1024,
  } satisfies RetainedLimits,
  // Mosquitto's max_queued_messages default; a day away of a few sensors at QoS 1 fits.
  offlineQueue: { perClient: 1000, totalBytes: 32 * 1024 * 1024 } satisfies OfflineQueueLimits,
};

/** Token bucket per client: returns how long to wait (ms) before this message may proceed. */
function throttle(rate: number) {
  const buckets = new WeakMap<object, { tokens: number; at: number }>();
  return (client: object): number => {
    if (!rate) return 0;
    const now = performance.now();
    const b = buckets.get(client) ?? { tokens: rate, at: now };
    b.tokens = Math.min(rate, b.tokens + ((now - b.at) / 1000) * rate) - 1;
    b.at = now;
    buckets.set(client, b);
    return b.tokens >= 0 ? 0 : (-b.tokens / rate) * 1000;
  };
}

export async function startBroker(opts: BrokerOptions): Promise<EmbeddedBroker> {
  // connectTimeout: a connection that sends no CONNECT within 10 s is closed (aedes default 30 s).
  const broker = await Aedes.createBroker({ drainTimeout: 30_000, heartbeatInterval: 60_000, connectTimeout: 10_000 });
  const needAuth = opts.accounts.length > 0;
  const wait = throttle(opts.maxMsgsPerSec ?? 0);
  let throttled = 0;
  const clientIds = createClientIds(
    (id) => (broker as unknown as { clients: Record<string, Client | undefined> }).clients[id],
  );
  const exactlyOnce = qos2Dedupe(broker);
  const retained = createRetainedLedger({ ...BROKER_DEFAULTS.retained, ...opts.retained });
  const lastNote = new Map<string, number>();
  const note = (key: string, msg: string) => {
    const now = Date.now();
    if (now - (lastNote.get(key) ?? 0) < 60_000) return;
    if (lastNote.size > 100) lastNote.clear();
    lastNote.set(key, now);
    opts.log?.(msg);
  };
  const offline = boundOfflineQueues(broker, { ...BROKER_DEFAULTS.offlineQueue, ...opts.offlineQueue }, (id, msg) =>
    note(`queue:${id}`, msg),
  );

  broker.authenticate = (client, username, password, done) => {
    if (!needAuth) return done(null, true);
    const account = opts.accounts.find(
      (a) => tokenMatches(username ?? '', a.username) && tokenMatches(password?.toString() ?? '', a.password),
    );
    if (!account) return done(Object.assign(new Error('bad username or password'), { returnCode: 4 }) as never, false);
    if (!clientIds.claim(client, account)) {
      note(
        `id:${account.username}`,
        `mqtt: ${account.username} tried client id ${client.id.slice(0, 100)}, which belongs to another account: refused (identifier rejected)`,
      );
      return done(
        Object.assign(new Error('identifier rejected: this client id belongs to another account'), {
          returnCode: 2,
        }) as never,
        false,
      );
    }
    setAccount(client, account);
    return done(null, true);
  };

  // Refused subscriptions get SUBACK 0x80 instead of a disconnect; a filter within a granted one is allowed.
  broker.authorizeSubscribe = (client, sub, done) =>
    done(null, maySubscribe(accountOf(client), sub.topic) ? sub : null);
  // Second line behind the client-id binding: nothing reaches an account on a topic it may not read.
  broker.authorizeForward = (client, packet) => (mayReceive(accountOf(client), packet.topic) ? packet : null);

  broker.authorizePublish = (client, packet: PublishPacket, done) => {
    const account = accountOf(client);
    const refusal = publishRefusal(account, packet.topic);
    if (refusal) return done(new Error(refusal));
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? '');
    const ingest = () =>
      opts.onPublish(packet.topic, payload, {
        retain: Boolean(packet.retain),
        qos: packet.qos,
        clientId: client?.id ?? '',
      });
    const go = () =>
      exactlyOnce.once(client, packet, ingest).then(
        (accepted) => {
          if (packet.retain && client) {
            // What the bridge refused is not retained; what is retained is capped.
            // An empty payload deletes the retained message [MQTT-3.3.1-10]: always let that through.
            const owner = account?.username ?? '';
            const why =
              accepted === false && payload.length > 0
                ? 'the bridge refused it'
                : retained.admit(owner, packet.topic, payload.length);
            if (why) {
              packet.retain = false;
              note(
                `retain:${account?.username ?? ''}`,
                `mqtt: not retaining ${packet.topic.slice(0, 120)} from ${account?.username ?? client.id.slice(0, 100)}: ${why}`,
              );
            }
          }
          done(null);
        },
        (e: Error) => {
          // Only a database failure gets here. No PUBACK: aedes drops the client, which re-sends its
          // unacknowledged QoS 1 messages when it reconnects — nothing acknowledged is lost.
          opts.log?.(`mqtt: ingest of ${packet.topic.slice(0, 120)} failed, not acknowledged: ${e.message}`);
          done(e);
        },
      );
    const delay = client ? wait(client) : 0;
    if (delay > 0) {
      throttled++;
      setTimeout(go, delay);
    } else void go();
  };

  const handle = guardedHandler(broker, {
    maxPacketBytes: opts.maxPacketBytes ?? BROKER_DEFAULTS.maxPacketBytes,
    maxPendingConnections: opts.maxPendingConnections ?? BROKER_DEFAULTS.maxPendingConnections,
    log: opts.log,
  });
  const server: Server = opts.tls
    ? // A TLS connection is counted once its handshake is done; the handshake itself gets 10 s (Node: 120 s).
      createTlsServer(
        { cert: readFileSync(opts.tls.cert), key: readFileSync(opts.tls.key), handshakeTimeout: 10_000 },
        handle,
      )
    : createServer(handle);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port, opts.host, () => resolve());
    });
  } catch (e) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new HubError(
        'conflict',
        `mqtt: port ${opts.port} on ${opts.host} is already in use (another MQTT broker, e.g. Mosquitto?): set mqtt.port (HEARTH_MQTT_PORT) to a free port, or mqtt.mode = "external" with mqtt.url to use that broker`,
      );
    }
    if (code === 'EACCES')
      throw new HubError(
        'conflict',
        `mqtt: may not listen on port ${opts.port} on ${opts.host} (ports below 1024 need privileges): set mqtt.port (HEARTH_MQTT_PORT)`,
      );
    throw e;
  }
  const addr = server.address() as { address: string; port: number };

  return {
    address: { host: addr.address, port: addr.port },
    publish: (topic, payload, o = {}) =>
      new Promise((resolve, reject) =>
        broker.publish(
          {
            cmd: 'publish',
            topic,
            payload: Buffer.isBuffer(payload) ? payload : Buffer.from(payload),
            qos: o.qos ?? 0,
            retain: o.retain ?? false,
            dup: false,
          },
          (err?: Error) => (err ? reject(err) : resolve()),
        ),
      ),
    clients: () => broker.connectedClients,
    throttled: () => throttled,
    queued: offline.queued,
    close: () =>
      new Promise<void>((resolve) => {
        // Close the listener first so no new clients arrive, then the broker (disconnects clients).
        server.close();
        broker.close(() => resolve());
      }),
  };
}
