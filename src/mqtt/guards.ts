/**
 * Limits on what a connection may cost before (and after) it logs in. aedes 1.x feeds every byte to
 * mqtt-packet, which buffers a packet until its declared length has arrived — so one CONNECT
 * declaring 80 MB held 80 MB before authentication was even tried. Here each connection's fixed
 * headers are read as the bytes arrive and a packet declaring more than the limit closes the
 * connection at once: 64 KiB until CONNACK (a CONNECT with a will fits easily), `max_packet_bytes`
 * after. Connections that have not completed CONNECT are capped too — past the cap the oldest is
 * closed — and aedes' `connectTimeout` closes one that sends no CONNECT.
 */
import type { Socket } from 'node:net';
import type { Aedes, Client } from 'aedes';

/** Largest packet accepted before CONNACK [MQTT-3.1]: username, password, client id and will. */
export const PRE_CONNACK_MAX_BYTES = 64 * 1024;

/**
 * Tracks MQTT fixed headers (type byte, then a 1–4 byte remaining length [MQTT-2.2.3]) across
 * chunks without keeping any bytes. `feed` returns the declared length of the first packet over
 * `limit()`, or 0.
 */
export function frameSizeGuard() {
  let skip = 0; // body bytes of the current packet still to pass
  let inLength = false;
  let length = 0;
  let factor = 1;
  let lengthBytes = 0;
  return (chunk: Buffer, limit: () => number): number => {
    let i = 0;
    while (i < chunk.length) {
      if (skip > 0) {
        const n = Math.min(skip, chunk.length - i);
        skip -= n;
        i += n;
      } else if (!inLength) {
        i++; // the type/flags byte
        inLength = true;
        length = 0;
        factor = 1;
        lengthBytes = 0;
      } else {
        const b = chunk[i++];
        length += (b & 0x7f) * factor;
        factor *= 128;
        lengthBytes++;
        if (b & 0x80 && lengthBytes < 4) continue;
        // A fifth length byte is malformed: mqtt-packet reports it, we only stop counting.
        if (b & 0x80) return 0;
        inLength = false;
        if (length > limit()) return length;
        skip = length;
      }
    }
    return 0;
  };
}

export interface GuardOptions {
  maxPacketBytes: number;
  maxPendingConnections: number;
  log?: (msg: string) => void;
}

/** Wraps `broker.handle` for a net/tls server: the connection cap and the packet-size guard. */
export function guardedHandler(broker: Aedes, opts: GuardOptions) {
  const pending = new Set<Socket>();
  let lastLog = 0;
  const note = (msg: string) => {
    const now = Date.now();
    if (now - lastLog < 60_000) return;
    lastLog = now;
    opts.log?.(msg);
  };
  broker.on('clientReady', (client: Client) => pending.delete(client.conn as Socket));

  return (socket: Socket) => {
    if (pending.size >= opts.maxPendingConnections) {
      // Close the oldest one rather than refuse this one: a sensor's CONNECT follows its connection
      // within milliseconds, so it gets through unless the slots are refilled faster than that.
      const oldest = pending.values().next().value!;
      pending.delete(oldest);
      oldest.destroy();
      note(
        `mqtt: more than ${opts.maxPendingConnections} connections have not logged in; closing the oldest (mqtt.max_pending_connections)`,
      );
    }
    pending.add(socket);
    socket.once('close', () => pending.delete(socket));
    const client = broker.handle(socket as never) as unknown as Client & { connackSent: boolean };
    const guard = frameSizeGuard();
    const limit = () => (client.connackSent ? opts.maxPacketBytes : PRE_CONNACK_MAX_BYTES);
    // aedes reads with `socket.read()` on 'readable'; a 'data' listener then sees each chunk as it
    // is read, before the parser does, without changing the flow (Node docs, readable.on('data')).
    socket.on('data', (chunk: Buffer) => {
      const declared = guard(chunk, limit);
      if (!declared) return;
      note(
        `mqtt: closed ${client.id ?? 'a connection'} from ${socket.remoteAddress}: a packet of ${declared} bytes is over the ${limit()}-byte limit${client.connackSent ? ' (mqtt.max_packet_bytes)' : ' before login'}`,
      );
      socket.destroy();
    });
  };
}
