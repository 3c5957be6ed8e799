/**
 * Caps on what aedes keeps for persistent sessions (clean: false) while their client is away.
 * aedes stores every QoS 1/2 message that matches such a session's subscriptions until the client
 * comes back and acknowledges it, with no limit (aedes `queueLimit` covers only a connecting
 * client's packets; aedes issue #1087). A dashboard that once subscribed to `#` with clean: false
 * and was then unplugged would grow the hub's heap by every sensor reading, for as long as the hub
 * runs. As Mosquitto does with `max_queued_messages` (default 1000), a session that is away keeps at
 * most `perClient` messages, and all queues together at most `totalBytes` (topic + payload); past a
 * cap a message is not queued for that session (the newest are the ones dropped, as in Mosquitto)
 * and a line is logged. A connected client's deliveries are never dropped: they count, but are not
 * capped, and leave the queue as the client acknowledges them.
 *
 * aedes-persistence keeps its queues in private fields, so the ledger wraps the three calls that
 * change them (`outgoingEnqueue`, `outgoingEnqueueCombi` add one entry per subscription;
 * `outgoingClearMessageId` is the only one that removes) and counts alongside.
 */
import type { Aedes } from 'aedes';
import { createTally } from './tally.js';

export interface OfflineQueueLimits {
  perClient: number;
  totalBytes: number;
}

interface Sub {
  clientId: string;
}
interface QueuedPacket {
  topic?: string;
  payload?: Buffer | string;
}
type Persistence = {
  outgoingEnqueue(sub: Sub, packet: QueuedPacket, cb?: unknown): Promise<void> | void;
  outgoingEnqueueCombi(subs: Sub[], packet: QueuedPacket, cb?: unknown): Promise<void> | void;
  outgoingClearMessageId(
    client: { id: string },
    packet: unknown,
    cb?: unknown,
  ): Promise<QueuedPacket | undefined> | void;
};

const sizeOf = (p: QueuedPacket) =>
  Buffer.byteLength(p.topic ?? '') +
  (typeof p.payload === 'string' ? Buffer.byteLength(p.payload) : (p.payload?.length ?? 0));

export function boundOfflineQueues(
  broker: Aedes,
  limits: OfflineQueueLimits,
  note: (clientId: string, msg: string) => void,
) {
  const persistence = (broker as unknown as { persistence: Persistence }).persistence;
  const connected = (id: string) => Boolean((broker as unknown as { clients: Record<string, unknown> }).clients[id]);
  const { total, of, adjust } = createTally();

  const enqueue = persistence.outgoingEnqueue.bind(persistence);
  const enqueueCombi = persistence.outgoingEnqueueCombi.bind(persistence);
  const clear = persistence.outgoingClearMessageId.bind(persistence);

  // aedes 1.x calls these without a callback and awaits the promise; a callback is passed through.
  persistence.outgoingEnqueue = (sub, packet, cb) => {
    adjust(sub.clientId, 1, sizeOf(packet));
    return enqueue(sub, packet, cb);
  };
  persistence.outgoingEnqueueCombi = (subs, packet, cb) => {
    const bytes = sizeOf(packet);
    const kept = subs.filter((sub) => {
      if (!connected(sub.clientId)) {
        const why =
          of(sub.clientId).messages >= limits.perClient
            ? `its queue holds ${limits.perClient} messages`
            : total.bytes + bytes > limits.totalBytes
              ? `all queues hold ${limits.totalBytes} bytes`
              : null;
        if (why) {
          note(
            sub.clientId,
            `mqtt: client ${sub.clientId.slice(0, 100)} is away (persistent session): not queueing ${packet.topic?.slice(0, 120)} and newer for it, ${why} (mqtt.offline_queue_max_messages / offline_queue_max_bytes)`,
          );
          return false;
        }
      }
      adjust(sub.clientId, 1, bytes);
      return true;
    });
    return enqueueCombi(kept, packet, cb);
  };
  persistence.outgoingClearMessageId = (client, packet, cb) => {
    const count = (gone: QueuedPacket | undefined) => {
      if (gone) adjust(client.id, -1, -sizeOf(gone));
      return gone;
    };
    if (typeof cb === 'function')
      return clear(client, packet, (err: unknown, gone?: QueuedPacket) => cb(err, err ? gone : count(gone)));
    return (clear(client, packet) as Promise<QueuedPacket | undefined>).then(count);
  };

  return {
    /** Messages and bytes queued now: in all, and for one client id. */
    queued: (clientId?: string) => ({ ...(clientId === undefined ? total : of(clientId)) }),
  };
}
