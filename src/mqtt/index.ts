/**
 * MQTT door: the embedded broker or an external broker's client, the bridge, and event publishing
 * (`hearth/events/<name>`, SPEC §7) so Home Assistant and Node-RED automations can react.
 */
import type { Config } from '../config/schema.js';
import type { HubEventName } from '../services/events.js';
import type { Services } from '../services.js';
import { createBridge, type Bridge } from './bridge.js';
import { startBroker, type EmbeddedBroker } from './broker.js';
import { connectExternal, type ExternalClient } from './external.js';
import { createMappingSet } from './mappings/index.js';

const EVENTS: HubEventName[] = ['memory_added', 'pattern_promoted', 'intention_triggered'];

export interface MqttDoor {
  bridge: Bridge;
  mode: Config['mqtt']['mode'];
  /** `mqtt://host:port` of the embedded broker, or the external URL. */
  url?: string;
  connected(): boolean;
  /** Messages queued for persistent sessions whose client is away (embedded broker only). */
  offlineQueue(): { messages: number; bytes: number } | undefined;
  /** Messages the per-client throttle (mqtt.max_msgs_per_sec) held back since start (embedded broker only). */
  throttled(): number | undefined;
  publish(topic: string, payload: unknown): Promise<void>;
  stop(): Promise<void>;
}

export async function startMqtt(
  config: Config,
  services: Services,
  log: (msg: string) => void,
): Promise<MqttDoor | null> {
  if (config.mqtt.mode === 'off') return null;
  const bridge = createBridge({
    services,
    mappings: createMappingSet(config.mqtt.mappings),
    timeZone: config.timeseries.timezone,
    log,
  });
  let broker: EmbeddedBroker | undefined;
  let external: ExternalClient | undefined;
  let url: string;
  if (config.mqtt.mode === 'embedded') {
    broker = await startBroker({
      host: config.mqtt.host,
      port: config.mqtt.port,
      accounts: [
        ...(config.mqtt.username
          ? [{ username: config.mqtt.username, password: config.mqtt.password, publish: ['#'], subscribe: ['#'] }]
          : []),
        ...config.mqtt.users,
      ],
      maxMsgsPerSec: config.mqtt.max_msgs_per_sec,
      maxPacketBytes: config.mqtt.max_packet_bytes,
      maxPendingConnections: config.mqtt.max_pending_connections,
      retained: {
        maxMessages: config.mqtt.retained_max_messages,
        maxBytes: config.mqtt.retained_max_bytes,
        maxMessagesPerAccount: config.mqtt.retained_max_messages_per_account,
        maxBytesPerAccount: config.mqtt.retained_max_bytes_per_account,
      },
      offlineQueue: {
        perClient: config.mqtt.offline_queue_max_messages,
        totalBytes: config.mqtt.offline_queue_max_bytes,
      },
      tls: config.mqtt.tls_cert ? { cert: config.mqtt.tls_cert, key: config.mqtt.tls_key } : undefined,
      onPublish: (topic, payload, p) => bridge.handle(topic, payload, { retain: p.retain }),
      log,
    });
    url = `${config.mqtt.tls_cert ? 'mqtts' : 'mqtt'}://${broker.address.host}:${broker.address.port}`;
  } else {
    if (!config.mqtt.url) throw new Error('mqtt.url (HEARTH_MQTT_URL) is required when mqtt.mode = external');
    external = await connectExternal({
      url: config.mqtt.url,
      username: config.mqtt.username,
      password: config.mqtt.password,
      filters: bridge.filters(),
      onMessage: (topic, payload, retain) => bridge.handle(topic, payload, { retain }).then(() => undefined),
      log,
    });
    url = config.mqtt.url;
  }
  const publish = async (topic: string, payload: unknown) => {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    if (broker) await broker.publish(topic, body);
    else await external!.publish(topic, body);
  };
  const unsubscribe = EVENTS.map((name) =>
    services.events.on(
      name,
      (p) =>
        void publish(`hearth/events/${name}`, p).catch((e: Error) =>
          log(`mqtt: publishing ${name} failed: ${e.message}`),
        ),
    ),
  );
  return {
    bridge,
    mode: config.mqtt.mode,
    url,
    connected: () => (broker ? true : Boolean(external?.client.connected)),
    offlineQueue: () => broker?.queued(),
    throttled: () => broker?.throttled(),
    publish,
    async stop() {
      unsubscribe.forEach((u) => u());
      await broker?.close();
      await external?.close();
    },
  };
}
