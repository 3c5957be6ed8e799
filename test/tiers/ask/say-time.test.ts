/** Times as a voice says them (SPEC §5 Ask): the home's zone, a 12-hour clock, days relative to now. */
import { describe, expect, it } from 'vitest';
import { sayClock, sayDuration, sayMoment, saySpan } from '../../../src/tiers/ask/say-time.js';

const s = (iso: string) => Date.parse(iso) / 1000;
const LONDON = 'Europe/London';
const now = s('2026-12-03T11:00:00Z'); // Thursday 11:00 in London

describe('sayClock', () => {
  it('says a 12-hour clock in the home zone, minutes only when there are some', () => {
    expect(sayClock(s('2026-12-02T22:30:00Z'), LONDON)).toBe('10:30 pm');
    expect(sayClock(s('2026-12-02T21:00:00Z'), LONDON)).toBe('9 pm');
    expect(sayClock(s('2026-12-02T00:05:00Z'), LONDON)).toBe('12:05 am');
    expect(sayClock(s('2026-12-02T12:00:00Z'), LONDON)).toBe('noon');
    expect(sayClock(s('2026-12-02T00:00:00Z'), LONDON)).toBe('midnight');
    expect(sayClock(s('2026-07-02T21:00:00Z'), LONDON)).toBe('10 pm'); // BST
    expect(sayClock(s('2026-12-02T21:00:00Z'), 'America/New_York')).toBe('4 pm');
    expect(sayClock(s('2026-12-02T21:29:40Z'), LONDON)).toBe('9:30 pm'); // rounded to the minute
  });
});

describe('sayDuration', () => {
  it('says at most two units, rounded as people say them', () => {
    expect(sayDuration(85 * 60)).toBe('1 hour and 25 minutes');
    expect(sayDuration(45 * 60 + 10)).toBe('45 minutes');
    expect(sayDuration(3600)).toBe('1 hour');
    expect(sayDuration(30)).toBe('30 seconds');
    expect(sayDuration(1)).toBe('1 second');
    expect(sayDuration(60)).toBe('1 minute');
    expect(sayDuration(2 * 86_400 + 3 * 3600 + 600)).toBe('2 days and 3 hours');
    expect(sayDuration(86_400)).toBe('1 day');
  });
});

describe('sayMoment', () => {
  it('names the day, the clock and how long ago', () => {
    expect(sayMoment(s('2026-12-02T21:00:00Z'), now, LONDON)).toBe('yesterday at 9 pm, 14 hours ago');
    expect(sayMoment(s('2026-12-03T10:35:00Z'), now, LONDON)).toBe('at 10:35 am, 25 minutes ago');
    expect(sayMoment(s('2026-12-01T07:15:00Z'), now, LONDON)).toBe('on Tuesday at 7:15 am, 2 days ago');
    expect(sayMoment(s('2026-11-20T18:00:00Z'), now, LONDON)).toBe('on 20 November at 6 pm, 1 week ago');
    expect(sayMoment(now - 20, now, LONDON)).toBe('at 11 am, just now');
    expect(sayMoment(s('2026-12-03T13:00:00Z'), now, LONDON)).toBe('at 1 pm, in 2 hours');
  });
  it('says the day of the home, not of UTC, near midnight', () => {
    const ny = 'America/New_York';
    const late = s('2026-12-03T04:50:00Z'); // 23:50 on Wednesday in New York
    expect(sayMoment(s('2026-12-03T04:00:00Z'), late, ny)).toBe('at 11 pm, 50 minutes ago');
    expect(sayMoment(s('2026-12-02T04:30:00Z'), late, ny)).toBe('yesterday at 11:30 pm, 1 day ago');
  });
});

describe('saySpan', () => {
  it('says a span inside last night as "last night"', () => {
    expect(saySpan(s('2026-12-02T22:30:00Z'), s('2026-12-02T23:55:00Z'), now, LONDON)).toBe(
      'from 10:30 pm to 11:55 pm last night',
    );
    expect(saySpan(s('2026-12-02T23:30:00Z'), s('2026-12-03T01:15:00Z'), now, LONDON)).toBe(
      'from 11:30 pm to 1:15 am last night',
    );
  });
  it('names the day of a span on one day, and both days of one that crosses days', () => {
    expect(saySpan(s('2026-12-03T07:00:00Z'), s('2026-12-03T08:15:00Z'), now, LONDON)).toBe('from 7 am to 8:15 am');
    expect(saySpan(s('2026-12-02T14:00:00Z'), s('2026-12-02T16:00:00Z'), now, LONDON)).toBe(
      'from 2 pm to 4 pm yesterday',
    );
    expect(saySpan(s('2026-11-30T23:00:00Z'), s('2026-12-01T06:30:00Z'), now, LONDON)).toBe(
      'from 11 pm on Monday to 6:30 am on Tuesday',
    );
  });
  it('says a span that runs to now with "since"', () => {
    expect(saySpan(s('2026-12-02T22:30:00Z'), now, now, LONDON)).toBe('since 10:30 pm yesterday');
    expect(saySpan(s('2026-12-03T09:00:00Z'), now, now, LONDON)).toBe('since 9 am');
  });
  it('takes the configured evening for "last night"', () => {
    const parts = { morning: [6, 12], afternoon: [12, 18], evening: [20, 22], night: [22, 6] } as never;
    expect(saySpan(s('2026-12-02T19:00:00Z'), s('2026-12-02T19:30:00Z'), now, LONDON, parts)).toBe(
      'from 7 pm to 7:30 pm yesterday',
    );
  });
});
