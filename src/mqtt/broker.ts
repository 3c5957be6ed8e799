/**
 * The embedded MQTT broker (aedes 1.x, MQTT 3.1.1) on a loopback listener by default.
 *
 * Durable acknowledgement: aedes answers a QoS 1 PUBLISH with PUBACK *after* `authorizePublish`
 * calls back (lib/handlers/publish.js runs authorizePublish, then enqueuePublish writes the PUBACK),
 * so the bridge ingests inside authorizePublish and calls back only once the batch is committed.
 * A whole socket read is dispatched concurrently, so many messages share one commit.
 * authorizePublish never returns an error for bad payloads: aedes would disconnect the client.
 */
import { createServer, type Server } from 'node:net';
import { Aedes, type Client, type PublishPacket } from 'aedes';
import { tokenMatches } from '../http/auth.js';

export interface BrokerOptions {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** Called for each client publish before it is acknowledged; rejects only when storage failed. */
  onPublish(topic: string, payload: Buffer, packet: { retain: boolean; qos: number; clientId: string }): Promise<void>;
  /** Per-topic publish permission (ACL); return false to refuse (the client is disconnected, per aedes). */
  canPublish?(client: Client | null, topic: string): boolean;
  log?: (msg: string) => void;
}

export interface EmbeddedBroker {
  address: { host: string; port: number };
  publish(topic: string, payload: string | Buffer, opts?: { retain?: boolean; qos?: 0 | 1 }): Promise<void>;
  clients(): number;
  close(): Promise<void>;
}

export async function startBroker(opts: BrokerOptions): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker({ drainTimeout: 30_000, heartbeatInterval: 60_000 });
  const needAuth = Boolean(opts.username || opts.password);

  broker.authenticate = (_client, username, password, done) => {
    if (!needAuth) return done(null, true);
    const ok = tokenMatches(username ?? '', opts.username ?? '') && tokenMatches(password?.toString() ?? '', opts.password ?? '');
    if (ok) return done(null, true);
    const err = Object.assign(new Error('bad username or password'), { returnCode: 4 });
    return done(err as never, false);
  };

  broker.authorizePublish = (client, packet: PublishPacket, done) => {
    if (packet.topic.startsWith('$SYS/')) return done(new Error('$SYS/ topic is reserved'));
    if (opts.canPublish && !opts.canPublish(client, packet.topic)) return done(new Error(`not allowed to publish to ${packet.topic}`));
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload ?? '');
    opts
      .onPublish(packet.topic, payload, { retain: Boolean(packet.retain), qos: packet.qos, clientId: client?.id ?? '' })
      .then(
        () => done(null),
        (e: Error) => {
          // Only a database failure gets here. No PUBACK: aedes drops the client, which re-sends its
          // unacknowledged QoS 1 messages when it reconnects — nothing acknowledged is lost.
          opts.log?.(`mqtt: ingest of ${packet.topic} failed, not acknowledged: ${e.message}`);
          done(e);
        },
      );
  };

  const server: Server = createServer(broker.handle as never);
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
