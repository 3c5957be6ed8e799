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
 * (its acknowledgement waits for the token bucket), never dropped.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes, type Client, type PublishPacket } from 'aedes';
import { tokenMatches } from '../http/auth.js';
import { matchTopic } from './mappings/index.js';

export interface MqttAccount {
  username: string;
  password: string;
  publish: string[];
  subscribe: string[];
}

export interface BrokerOptions {
  host: string;
  port: number;
  accounts: MqttAccount[];
  maxMsgsPerSec?: number;
  tls?: { cert: string; key: string };
  /** Called for each client publish before it is acknowledged; rejects only when storage failed. */
  onPublish(topic: string, payload: Buffer, packet: { retain: boolean; qos: number; clientId: string }): Promise<void>;
  log?: (msg: string) => void;
}

export interface EmbeddedBroker {
  address: { host: string; port: number };
  publish(topic: string, payload: string | Buffer, opts?: { retain?: boolean; qos?: 0 | 1 }): Promise<void>;
  clients(): number;
  close(): Promise<void>;
}

const RESERVED = 'hearth/events/';
const allowed = (filters: string[], topic: string) => filters.some((f) => matchTopic(f, topic) !== null);
const accountOf = (client: Client | null) => (client as (Client & { hearthAccount?: MqttAccount }) | null)?.hearthAccount;

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
  const broker = await Aedes.createBroker({ drainTimeout: 30_000, heartbeatInterval: 60_000 });
  const needAuth = opts.accounts.length > 0;
  const wait = throttle(opts.maxMsgsPerSec ?? 0);

  broker.authenticate = (client, username, password, done) => {
    if (!needAuth) return done(null, true);
    const account = opts.accounts.find((a) => tokenMatches(username ?? '', a.username) && tokenMatches(password?.toString() ?? '', a.password));
    if (account) {
      (client as Client & { hearthAccount?: MqttAccount }).hearthAccount = account;
      return done(null, true);
    }
    return done(Object.assign(new Error('bad username or password'), { returnCode: 4 }) as never, false);
  };

  broker.authorizeSubscribe = (client, sub, done) => {
    const account = accountOf(client);
    // Refused subscriptions get SUBACK 0x80 instead of a disconnect.
    done(null, account && !allowed(account.subscribe, sub.topic) ? null : sub);
  };

  broker.authorizePublish = (client, packet: PublishPacket, done) => {
    if (packet.topic.startsWith('$SYS/')) return done(new Error('$SYS/ topic is reserved'));
    if (packet.topic.startsWith(RESERVED)) return done(new Error(`${RESERVED}# is published by Hearth only`));
    const account = accountOf(client);
    if (account && !allowed(account.publish, packet.topic)) return done(new Error(`${account.username} may not publish to ${packet.topic}`));
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? '');
    const go = () =>
      opts.onPublish(packet.topic, payload, { retain: Boolean(packet.retain), qos: packet.qos, clientId: client?.id ?? '' }).then(
        () => done(null),
        (e: Error) => {
          // Only a database failure gets here. No PUBACK: aedes drops the client, which re-sends its
          // unacknowledged QoS 1 messages when it reconnects — nothing acknowledged is lost.
          opts.log?.(`mqtt: ingest of ${packet.topic} failed, not acknowledged: ${e.message}`);
          done(e);
        },
      );
    const delay = client ? wait(client) : 0;
    if (delay > 0) setTimeout(go, delay);
    else void go();
  };

  const server: Server = opts.tls
    ? createTlsServer({ cert: readFileSync(opts.tls.cert), key: readFileSync(opts.tls.key) }, broker.handle as never)
    : createServer(broker.handle as never);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const addr = server.address() as { address: string; port: number };

  return {
    address: { host: addr.address, port: addr.port },
    publish: (topic, payload, o = {}) =>
      new Promise((resolve, reject) =>
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.isBuffer(payload) ? payload : Buffer.from(payload), qos: o.qos ?? 0, retain: o.retain ?? false, dup: false },
          (err?: Error) => (err ? reject(err) : resolve()),
        ),
      ),
    clients: () => broker.connectedClients,
    close: () =>
      new Promise<void>((resolve) => {
        // Close the listener first so no new clients arrive, then the broker (disconnects clients).
        server.close();
        broker.close(() => resolve());
      }),
  };
}
