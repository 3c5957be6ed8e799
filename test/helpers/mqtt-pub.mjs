// `mosquitto_pub` for machines without Debian's mosquitto-clients: the options the tests use
// (-h -p -q -t -m -r -u -P), the same exit status (0 once the broker acknowledged, 1 on a refused
// connection), run as its own process like the real client. node test/helpers/mqtt-pub.mjs -t … -m …
import { parseArgs } from 'node:util';
import mqtt from 'mqtt';

const { values: o } = parseArgs({
  options: {
    h: { type: 'string', default: 'localhost' },
    p: { type: 'string', default: '1883' },
    q: { type: 'string', default: '0' },
    t: { type: 'string' },
    m: { type: 'string', default: '' },
    r: { type: 'boolean', default: false },
    u: { type: 'string' },
    P: { type: 'string' },
  },
});
const client = mqtt.connect({
  host: o.h,
  port: Number(o.p),
  username: o.u,
  password: o.P,
  reconnectPeriod: 0,
  protocolVersion: 4,
});
client.on('error', (e) => {
  process.stderr.write(`Connection error: ${e.message}\n`);
  process.exit(1);
});
client.on('connect', () =>
  client.publish(o.t, o.m, { qos: Number(o.q), retain: o.r }, (e) => {
    if (e) {
      process.stderr.write(`Error: ${e.message}\n`);
      process.exit(1);
    }
    client.end(false, {}, () => process.exit(0));
  }),
);
