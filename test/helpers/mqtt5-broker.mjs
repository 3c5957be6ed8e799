// A small MQTT 3.1.1 + 5 broker for the external-broker tests on machines without Debian's Mosquitto:
//   node test/helpers/mqtt5-broker.mjs <port>
// It runs in its own process, as Mosquitto would. aedes cannot stand in: it refuses MQTT 5 CONNECTs
// (lib/handlers/connect.js accepts protocol levels 3–4), and Hearth's external client speaks MQTT 5
// so that mqtt.js holds each PUBACK until the reading is committed (src/mqtt/external.ts).
// What it does is what those tests need from Mosquitto with `persistence false`: CONNECT/CONNACK,
// SUBSCRIBE with + and #, QoS 0/1 in both directions (PUBACK after routing), retained messages replayed
// on subscribe, PINGREQ, DISCONNECT. Packets come from mqtt-packet, the codec mqtt.js and aedes use.
import { createServer } from 'node:net';
import mqttPacket from 'mqtt-packet';

const port = Number(process.argv[2]);
const retained = new Map();
const sessions = new Set();

/** MQTT topic filter match, [MQTT-4.7]: `+` one level, `#` the rest; `$`-topics not matched by wildcards. */
function matches(filter, topic) {
  const f = filter.split('/');
  const t = topic.split('/');
  if (topic.startsWith('$') && (f[0] === '+' || f[0] === '#')) return false;
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

function deliver(session, msg, grantedQos) {
  const qos = Math.min(grantedQos, msg.qos);
  const out = { cmd: 'publish', topic: msg.topic, payload: msg.payload, qos, retain: msg.retain, dup: false };
  if (qos > 0) {
    session.nextId = (session.nextId % 65535) + 1;
    out.messageId = session.nextId;
  }
  session.send(out);
}

function route(msg) {
  for (const s of sessions) {
    const sub = s.subs.find((x) => matches(x.filter, msg.topic));
    if (sub) deliver(s, { ...msg, retain: false }, sub.qos);
  }
}

createServer((sock) => {
  const parser = mqttPacket.parser();
  const session = {
    subs: [],
    nextId: 0,
    version: 4,
    send: (p) => sock.write(mqttPacket.generate(p, { protocolVersion: session.version })),
  };
  sock.on('data', (d) => parser.parse(d));
  sock.on('error', () => sock.destroy());
  sock.on('close', () => sessions.delete(session));
  parser.on('error', () => sock.destroy());
  parser.on('packet', (p) => {
    switch (p.cmd) {
      case 'connect':
        session.version = p.protocolVersion;
        sessions.add(session);
        session.send(
          session.version === 5
            ? { cmd: 'connack', reasonCode: 0, sessionPresent: false }
            : { cmd: 'connack', returnCode: 0, sessionPresent: false },
        );
        break;
      case 'subscribe': {
        const granted = [];
        for (const { topic, qos } of p.subscriptions) {
          const q = Math.min(qos, 1);
          session.subs = session.subs.filter((x) => x.filter !== topic).concat({ filter: topic, qos: q });
          granted.push(q);
        }
        session.send({ cmd: 'suback', messageId: p.messageId, granted });
        for (const { topic } of p.subscriptions) {
          for (const msg of retained.values())
            if (matches(topic, msg.topic))
              deliver(session, msg, Math.min(p.subscriptions.find((x) => x.topic === topic).qos, 1));
        }
        break;
      }
      case 'unsubscribe':
        session.subs = session.subs.filter((x) => !p.unsubscriptions.includes(x.filter));
        session.send({ cmd: 'unsuback', messageId: p.messageId, granted: p.unsubscriptions.map(() => 0) });
        break;
      case 'publish': {
        const msg = { topic: p.topic, payload: p.payload, qos: Math.min(p.qos, 1), retain: p.retain };
        if (p.retain) {
          if (p.payload.length === 0) retained.delete(p.topic);
          else retained.set(p.topic, msg);
        }
        route(msg);
        if (p.qos >= 1) session.send({ cmd: 'puback', messageId: p.messageId });
        break;
      }
      case 'pingreq':
        session.send({ cmd: 'pingresp' });
        break;
      case 'disconnect':
        sock.end();
        break;
      default: // puback from subscribers: nothing kept to resend (no persistence, like `persistence false`)
    }
  });
}).listen(port, '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));

process.on('SIGTERM', () => process.exit(0));
