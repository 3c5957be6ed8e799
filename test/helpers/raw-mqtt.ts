/**
 * A raw MQTT 3.1.1 client over node:net with mqtt-packet, for what mqtt.js will not send on
 * purpose: DUP retransmissions, oversized or trickled packets, several packets in one write.
 */
import { connect, type Socket } from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';

export interface RawClient {
  socket: Socket;
  /** Resolves with the next received packet of this type. */
  next(cmd: Packet['cmd']): Promise<Packet>;
  /** Writes the packets in one socket write. */
  send(...packets: Packet[]): void;
  closed: Promise<void>;
}

export async function rawSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  socket.on('error', () => undefined);
  return socket;
}

export async function rawClient(
  port: number,
  opts: { clientId?: string; username?: string; password?: string; clean?: boolean } = {},
): Promise<RawClient> {
  const socket = await rawSocket(port);
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const received: Packet[] = [];
  const waiters: { cmd: string; resolve: (p: Packet) => void }[] = [];
  parser.on('packet', (p: Packet) => {
    const i = waiters.findIndex((w) => w.cmd === p.cmd);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(p);
    else received.push(p);
  });
  socket.on('data', (d) => parser.parse(d));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const client: RawClient = {
    socket,
    closed,
    next: (cmd) => {
      const i = received.findIndex((p) => p.cmd === cmd);
      if (i >= 0) return Promise.resolve(received.splice(i, 1)[0]);
      return new Promise((resolve) => waiters.push({ cmd, resolve }));
    },
    send: (...packets) => void socket.write(Buffer.concat(packets.map((p) => mqttPacket.generate(p)))),
  };
  client.send({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: 4,
    clean: opts.clean ?? true,
    clientId: opts.clientId ?? `raw-${Math.random().toString(36).slice(2)}`,
    keepalive: 30,
    username: opts.username,
    password: opts.password === undefined ? undefined : Buffer.from(opts.password),
  } as Packet);
  return client;
}
