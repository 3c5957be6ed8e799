/**
 * The packet-size guard reads MQTT fixed headers across arbitrary chunk boundaries (issue #10
 * item 8): real packets from mqtt-packet, split at random points, never trip it below the limit,
 * and the first packet over the limit is reported with its declared length.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import mqttPacket, { type Packet } from 'mqtt-packet';
import { frameSizeGuard } from '../../src/mqtt/guards.js';

const publish = (size: number, i: number): Packet => ({
  cmd: 'publish',
  topic: `t/${i}`,
  payload: Buffer.alloc(size, 1),
  qos: 1,
  messageId: i + 1,
  dup: false,
  retain: false,
});

/** The remaining length mqtt-packet itself reads from a packet's fixed header. */
function remainingLength(wire: Buffer): number {
  let length = -1;
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  parser.on('packet', (p: Packet & { length?: number }) => (length = p.length ?? -1));
  parser.parse(wire);
  return length;
}

/** `buf` cut at the given fractions. */
function split(buf: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => Math.floor(c * buf.length)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let prev = 0;
  for (const a of [...at, buf.length]) {
    if (a > prev) out.push(buf.subarray(prev, a));
    prev = Math.max(prev, a);
  }
  return out;
}

describe('frameSizeGuard', () => {
  it('follows real packet streams across any chunking (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }),
        fc.integer({ min: 0, max: 12 }),
        (sizes, cuts, bigAt) => {
          const packets = sizes.map((s, i) => publish(s, i));
          const over = bigAt < packets.length ? bigAt : -1;
          if (over >= 0) packets[over] = publish(5000, over);
          const wire = packets.map((p) => mqttPacket.generate(p));
          const guard = frameSizeGuard();
          let reported = 0;
          for (const chunk of split(Buffer.concat(wire), cuts)) {
            reported = guard(chunk, () => 4096);
            if (reported) break;
          }
          const declared = over >= 0 ? remainingLength(wire[over]) : 0;
          expect(reported).toBe(declared);
        },
      ),
      { seed: 0x6a4d, numRuns: 400 },
    );
  }, 120_000);

  it('reports an 80 MB CONNECT from its first five bytes', () => {
    const guard = frameSizeGuard();
    // 0x10 CONNECT, remaining length 80,000,000 as a 4-byte variable integer [MQTT-2.2.3].
    expect(guard(Buffer.from([0x10, 0x80, 0xe8, 0x92, 0x26]), () => 64 * 1024)).toBe(80_000_000);
  });
});
