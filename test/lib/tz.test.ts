import { describe, expect, it } from 'vitest';
import { localToUtc, offsetAt, wallTime } from '../../src/lib/tz.js';

const iso = (s: number) => new Date(s * 1000).toISOString();

describe('tz', () => {
  it('gives offsets and wall times across DST', () => {
    expect(offsetAt(Date.parse('2026-01-15T12:00:00Z') / 1000, 'Europe/Berlin')).toBe(3600);
    expect(offsetAt(Date.parse('2026-07-15T12:00:00Z') / 1000, 'Europe/Berlin')).toBe(7200);
    expect(offsetAt(Date.parse('2026-07-15T12:00:00Z') / 1000, 'Asia/Kolkata')).toBe(19800);
    expect(wallTime(Date.parse('2026-11-30T17:10:00Z') / 1000, 'Europe/Berlin')).toMatchObject({
      hour: 18,
      minute: 10,
      day: 30,
    });
  });

  it('converts wall time to instants, taking the earlier one in an overlap and skipping gaps', () => {
    expect(iso(localToUtc({ year: 2026, month: 11, day: 30, hour: 18, minute: 10, second: 0 }, 'Europe/Berlin'))).toBe(
      '2026-11-30T17:10:00.000Z',
    );
    expect(iso(localToUtc({ year: 2026, month: 7, day: 1, hour: 18, minute: 10, second: 0 }, 'America/New_York'))).toBe(
      '2026-07-01T22:10:00.000Z',
    );
    // 2026-11-01 01:30 happens twice in New York: EDT (05:30Z) first.
    expect(iso(localToUtc({ year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 }, 'America/New_York'))).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    // 2026-03-08 02:30 does not exist in New York.
    expect(iso(localToUtc({ year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 }, 'America/New_York'))).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    expect(iso(localToUtc({ year: 2026, month: 3, day: 8, hour: 3, minute: 30, second: 0 }, 'America/New_York'))).toBe(
      '2026-03-08T07:30:00.000Z',
    );
  });
});
