/**
 * QoS 2 exactly-once for what Hearth stores. aedes runs `authorizePublish` — where the bridge
 * stores the message — *before* it looks the packet id up in the inbound QoS 2 store
 * (lib/handlers/publish.js `enqueuePublish`), so a DUP retransmission sent before PUBREL [MQTT-4.3.3]
 * was stored a second time. Here a QoS 2 PUBLISH whose id is already known for this client is a
 * retransmission: not stored again, acknowledged once the first one is. Known means in flight here
 * (first copy still being stored, or stored but not yet in aedes' store: a whole socket read is
 * dispatched concurrently) or in aedes' inbound store (until PUBREL; kept across reconnects of a
 * persistent session).
 */
import type { Aedes, Client, PublishPacket } from 'aedes';

export function qos2Dedupe(broker: Aedes) {
  const inflight = new WeakMap<Client, Map<number, Promise<unknown>>>();
  const persistence = (broker as unknown as { persistence: unknown }).persistence as {
    incomingGetPacket(client: Client, packet: { messageId?: number }): Promise<unknown>;
    incomingStorePacket(client: Client, packet: PublishPacket): Promise<void>;
  };
  // The first copy leaves `inflight` once aedes has stored it; from then on its store answers.
  const store = persistence.incomingStorePacket.bind(persistence);
  persistence.incomingStorePacket = (client, packet) =>
    store(client, packet).finally(() => inflight.get(client)?.delete(packet.messageId!));

  return {
    /**
     * Runs `ingest` once per QoS 2 message; for a retransmission, waits for the first copy instead.
     * Resolves with `ingest`'s result (the first copy's for a retransmission; undefined when aedes already had it).
     */
    async once<T>(client: Client | null, packet: PublishPacket, ingest: () => Promise<T>): Promise<T | undefined> {
      if (!client || packet.qos !== 2 || packet.messageId === undefined) return ingest();
      const id = packet.messageId;
      let mine = inflight.get(client);
      if (!mine) inflight.set(client, (mine = new Map()));
      const first = mine.get(id);
      if (first) return (await first.catch(() => undefined)) as T | undefined;
      const run = persistence.incomingGetPacket(client, packet).then(
        () => {
          // Already in aedes' store (an earlier copy, maybe on an earlier connection of the session):
          // aedes answers PUBREC itself and stores nothing, so nothing would clear this entry.
          mine.delete(id);
          return undefined;
        },
        () => ingest(),
      );
      mine.set(id, run);
      try {
        return await run;
      } catch (e) {
        mine.delete(id);
        throw e;
      }
    },
  };
}
