import { describe, expect, it } from 'vitest';
import { createBucketer, type BucketType } from '../../../src/tiers/timeseries/buckets.js';

const s = (iso: string) => Date.parse(iso) / 1000;
const iso = (sec: number) => new Date(sec * 1000).toISOString().replace('.000', '');
const H = 3600;

/** Buckets of one type from `from` (a bucket start) until `until`, by repeated next(). */
function walk(b: ReturnType<typeof createBucketer>, type: BucketType, from: number, until: number): number[] {
  const out: number[] = [];
  for (let t = from; t < until; t = b.next(type, t)) out.push(t);
  return out;
}

describe('UTC', () => {
  const b = createBucketer('UTC');
  it('hour, day and ISO week (Monday) starts', () => {
    const t = s('2026-01-01T13:45:12Z'); // a Thursday
    expect(iso(b.hour(t))).toBe('2026-01-01T13:00:00Z');
    expect(iso(b.day(t))).toBe('2026-01-01T00:00:00Z');
    expect(iso(b.week(t))).toBe('2025-12-29T00:00:00Z');
    expect(iso(b.next('hour', b.hour(t)))).toBe('2026-01-01T14:00:00Z');
    expect(iso(b.next('day', b.day(t)))).toBe('2026-01-02T00:00:00Z');
    expect(iso(b.next('week', b.week(t)))).toBe('2026-01-05T00:00:00Z');
    // A Monday is its own week start; a Sunday belongs to the week before.
    expect(iso(b.week(s('2026-01-05T00:00:00Z')))).toBe('2026-01-05T00:00:00Z');
    expect(iso(b.week(s('2026-01-04T23:59:59Z')))).toBe('2025-12-29T00:00:00Z');
    expect(b.of('day', t)).toBe(b.day(t));
  });
  it('accepts fractional seconds', () => {
    expect(b.hour(s('2026-01-01T13:00:00Z') - 0.001)).toBe(s('2026-01-01T12:00:00Z'));
    expect(b.hour(s('2026-01-01T13:00:00Z') + 0.5)).toBe(s('2026-01-01T13:00:00Z'));
  });
});

describe('America/New_York', () => {
  const b = createBucketer('America/New_York');
  it('spring-forward day 2026-03-08 has 23 hours', () => {
    const d = b.day(s('2026-03-08T12:00:00Z'));
    expect(iso(d)).toBe('2026-03-08T05:00:00Z');
    expect(iso(b.next('day', d))).toBe('2026-03-09T04:00:00Z');
    const hours = walk(b, 'hour', d, b.next('day', d));
    expect(hours).toHaveLength(23);
    // 01:00 EST is followed directly by 03:00 EDT.
    expect(iso(hours[1])).toBe('2026-03-08T06:00:00Z');
    expect(iso(hours[2])).toBe('2026-03-08T07:00:00Z');
    expect(b.offset(hours[2])).toBe(-4 * H);
  });
  it('fall-back day 2026-11-01 has 25 hours; the repeated 01:00 hour is two buckets', () => {
    const d = b.day(s('2026-11-01T12:00:00Z'));
    expect(iso(d)).toBe('2026-11-01T04:00:00Z');
    expect(iso(b.next('day', d))).toBe('2026-11-02T05:00:00Z');
    expect(walk(b, 'hour', d, b.next('day', d))).toHaveLength(25);
    const firstOne = b.hour(s('2026-11-01T05:30:00Z')); // 01:30 EDT
    const secondOne = b.hour(s('2026-11-01T06:30:00Z')); // 01:30 EST
    expect(iso(firstOne)).toBe('2026-11-01T05:00:00Z');
    expect(iso(secondOne)).toBe('2026-11-01T06:00:00Z');
    expect(b.next('hour', firstOne)).toBe(secondOne);
  });
  it('a week spanning the spring change has 167 hours', () => {
    const w = b.week(s('2026-03-08T12:00:00Z')); // Sunday → week of Mon 2026-03-02
    expect(iso(w)).toBe('2026-03-02T05:00:00Z');
    expect(iso(b.next('week', w))).toBe('2026-03-09T04:00:00Z');
    expect((b.next('week', w) - w) / H).toBe(167);
    expect(walk(b, 'day', w, b.next('week', w))).toHaveLength(7);
  });
});

describe('Europe/Berlin', () => {
  const b = createBucketer('Europe/Berlin');
  it('2026-03-29 has 23 hours, 2026-10-25 has 25', () => {
    const spring = b.day(s('2026-03-29T10:00:00Z'));
    expect(iso(spring)).toBe('2026-03-28T23:00:00Z');
    expect((b.next('day', spring) - spring) / H).toBe(23);
    const fall = b.day(s('2026-10-25T10:00:00Z'));
    expect(iso(fall)).toBe('2026-10-24T22:00:00Z');
    expect((b.next('day', fall) - fall) / H).toBe(25);
    expect(walk(b, 'hour', fall, b.next('day', fall))).toHaveLength(25);
    // 02:30 CEST and 02:30 CET: two buckets
    expect(iso(b.hour(s('2026-10-25T00:30:00Z')))).toBe('2026-10-25T00:00:00Z');
    expect(iso(b.hour(s('2026-10-25T01:30:00Z')))).toBe('2026-10-25T01:00:00Z');
  });
  it('a week spanning the fall change has 169 hours', () => {
    const w = b.week(s('2026-10-25T10:00:00Z'));
    expect(iso(w)).toBe('2026-10-18T22:00:00Z'); // Mon 2026-10-19 00:00 CEST
    expect(iso(b.next('week', w))).toBe('2026-10-25T23:00:00Z'); // Mon 2026-10-26 00:00 CET
    expect((b.next('week', w) - w) / H).toBe(169);
  });
});

describe('zones with :30 and :45 offsets and odd transitions', () => {
  it('Asia/Kolkata hours start at :30 UTC, days at 18:30 UTC', () => {
    const b = createBucketer('Asia/Kolkata');
    const t = s('2026-05-10T10:10:00Z'); // 15:40 IST
    expect(iso(b.hour(t))).toBe('2026-05-10T09:30:00Z');
    expect(iso(b.next('hour', b.hour(t)))).toBe('2026-05-10T10:30:00Z');
    expect(iso(b.day(t))).toBe('2026-05-09T18:30:00Z');
    expect(iso(b.week(t))).toBe('2026-05-03T18:30:00Z'); // Mon 2026-05-04 00:00 IST
  });
  it('Asia/Kathmandu hours start at :15 UTC', () => {
    const b = createBucketer('Asia/Kathmandu');
    expect(iso(b.hour(s('2026-05-10T10:10:00Z')))).toBe('2026-05-10T09:15:00Z');
    expect(iso(b.day(s('2026-05-10T10:10:00Z')))).toBe('2026-05-09T18:15:00Z');
  });
  it('America/Santiago: when DST starts at midnight the day starts at 01:00', () => {
    const b = createBucketer('America/Santiago');
    const d = b.day(s('2026-09-06T15:00:00Z'));
    expect(iso(d)).toBe('2026-09-06T04:00:00Z'); // 24:00 −04 = 01:00 −03
    expect((b.next('day', d) - d) / H).toBe(23);
    expect(b.next('day', b.day(s('2026-09-05T15:00:00Z')))).toBe(d);
  });
  it('Australia/Lord_Howe: a 30-minute shift gives a 30-minute hour bucket', () => {
    const b = createBucketer('Australia/Lord_Howe');
    // 2026-10-04 02:00 +10:30 → 02:30 +11:00 at 15:30Z
    expect(iso(b.hour(s('2026-10-03T15:40:00Z')))).toBe('2026-10-03T15:30:00Z');
    expect(iso(b.next('hour', s('2026-10-03T15:30:00Z')))).toBe('2026-10-03T16:00:00Z');
    expect(iso(b.hour(s('2026-10-03T15:20:00Z')))).toBe('2026-10-03T14:30:00Z');
    expect(iso(b.next('hour', s('2026-10-03T14:30:00Z')))).toBe('2026-10-03T15:30:00Z');
  });
  it('rejects an unknown zone', () => {
    expect(() => createBucketer('Mars/Olympus_Mons')).toThrow(RangeError);
  });
});

describe('invariants against an independent Intl reading, every 7 minutes through DST changes', () => {
  const zones = [
    'UTC',
    'America/New_York',
    'Europe/Berlin',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'America/Santiago',
    'Asia/Beirut',
    'America/Havana',
    'Pacific/Chatham',
  ];
  const windows = ['2026-03-06', '2026-03-27', '2026-04-03', '2026-09-04', '2026-10-02', '2026-10-23', '2026-10-30'];
  for (const zone of zones) {
    it(zone, () => {
      const b = createBucketer(zone);
      const ref = new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        hourCycle: 'h23',
        weekday: 'short',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      });
      const parts = (t: number) =>
        Object.fromEntries(ref.formatToParts(new Date(t * 1000)).map((p) => [p.type, p.value]));
      const date = (t: number) => {
        const p = parts(t);
        return `${p.year}-${p.month}-${p.day}`;
      };
      const bad: string[] = [];
      const check = (ok: boolean, what: string, t: number) => void (ok || bad.push(`${what} at ${iso(t)}`));
      for (const w of windows) {
        const from = s(`${w}T00:00:00Z`);
        for (let t = from; t < from + 4 * 86_400; t += 11 * 60 + 13) {
          const h = b.hour(t),
            d = b.day(t),
            wk = b.week(t);
          const hn = b.next('hour', h),
            dn = b.next('day', d),
            wn = b.next('week', wk);
          check(h <= t && t < hn && hn - h <= H, 'hour contains t, ≤ 60 min', t);
          check(d <= h && hn <= dn && wk <= d && dn <= wn, 'hour ⊂ day ⊂ week', t);
          check(
            b.hour(h) === h && b.hour(hn - 1) === h && b.day(dn) === dn && b.week(wn) === wn,
            'next() is a start',
            t,
          );
          // an hour starts on a local hour, or where the offset changes
          check(parts(h).minute === '00' || b.offset(h - 1) !== b.offset(h), 'hour start', t);
          // the day is the local date, from its first instant to the next date's
          const today = date(t);
          check(date(d) === today && date(d - 1) !== today && date(dn) !== today && date(dn - 1) === today, 'day', t);
          // the week starts on the first instant of a Monday
          check(parts(wk).weekday === 'Mon' && parts(wk - 1).weekday === 'Sun', 'week', t);
        }
      }
      expect(bad.slice(0, 10)).toEqual([]);
    });
  }
});

describe('speed', () => {
  it('1M cached hour/day/week look-ups agree with a fresh bucketer (timing lives in npm run bench)', () => {
    const b = createBucketer('Europe/Berlin');
    const start = s('2026-01-01T00:00:00Z');
    // Berlin's offsets are whole hours, so an hour bucket is the hour the instant falls in.
    for (let i = 0; i < 1_000_000; i++) {
      const t = start + i * 60;
      if (b.hour(t) !== t - (t % 3600)) throw new Error(`hour(${t}) = ${b.hour(t)}`);
    }
    const fresh = () => createBucketer('Europe/Berlin');
    for (let i = 0; i < 1_000_000; i += 997) {
      const t = start + ((i * 7919) % 1_000_000) * 60;
      const unit = i % 2 ? 'day' : 'week';
      expect(b.of(unit, t)).toBe(fresh().of(unit, t));
    }
  });
});
