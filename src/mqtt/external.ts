/**
 * External broker mode (Mosquitto, EMQX): Hearth connects as a client and subscribes to every
 * mapping's filters with QoS 1. mqtt.js's `customHandleAcks` holds each PUBACK until the bridge has
 * committed the message, so an acknowledged reading is on disk here too; mqtt.js honours it only
 * on MQTT 5, so the bridge speaks MQTT 5 (Mosquitto ≥ 1.6, EMQX). A persistent session
 * (clean: false, fixed client id) lets the broker keep QoS 1 messages while Hearth restarts.
 */
import mqtt, { type MqttClient } from 'mqtt';

export interface ExternalOptions {
  url: string;
  username?: string;
  password?: string;
  clientId?: string;
  filters: string[];
  onMessage(topic: string, payload: Buffer, retain: boolean): Promise<void>;
  log?: (msg: string) => void;
}

export interface ExternalClient {
  client: MqttClient;
  publish(topic: string, payload: string, opts?: { retain?: boolean; qos?: 0 | 1 }): Promise<void>;
  close(): Promise<void>;
}

export async function connectExternal(opts: ExternalOptions): Promise<ExternalClient> {
  const client = mqtt.connect(opts.url, {
    clientId: opts.clientId ?? 'hearth-bridge',
    clean: false,
    username: opts.username || undefined,
    password: opts.password || undefined,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
    protocolVersion: 5,
    properties: { sessionExpiryInterval: 7 * 86_400 },
    customHandleAcks: (topic, message, packet, done) => {
      opts.onMessage(topic, message, Boolean(packet.retain)).then(
        () => done(0),
        (e: Error) => {
          // Storage failed: send no PUBACK at all. Dropping the connection makes the broker keep the
          // message in the persistent session and redeliver it after the automatic reconnect.
          opts.log?.(`mqtt external: not acknowledging ${topic}: ${e.message}; reconnecting`);
          client.stream?.destroy();
        },
      );
    },
  });
  client.on('error', (e) => opts.log?.(`mqtt external: ${e.message}`));
  client.on('connect', (ack) => {
    // With a persistent session the broker remembers subscriptions; subscribe anyway (idempotent) on first connect.
    if (!ack.sessionPresent)
      client.subscribe(
        opts.filters.map((f) => f),
        { qos: 1 },
        (err) => err && opts.log?.(`mqtt external: subscribe failed: ${err.message}`),
      );
  });
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`mqtt external: no connection to ${opts.url} within 10 s`)), 10_000);
    client.once('connect', () => (clearTimeout(t), resolve()));
  });
  return {
    client,
    publish: (topic, payload, o = {}) =>
      new Promise((resolve, reject) =>
        client.publish(topic, payload, { qos: o.qos ?? 0, retain: o.retain ?? false }, (e) =>
          e ? reject(e) : resolve(),
        ),
      ),
    close: () => new Promise((resolve) => client.end(false, {}, () => resolve())),
  };
}
