/**
 * readWhen (SPEC §5 Ask, #34 item 3): every time phrase on a fixed clock in the home's zone, near
 * midnight, across DST changes (Europe/London, America/New_York), with configured day parts, and
 * null when a question names no time.
 */
import { describe, expect, it } from 'vitest';
import { readWhen } from '../../../src/tiers/ask/when.js';

const s = (iso: string) => Date.parse(iso) / 1000;
const LONDON = 'Europe/London';
const NY = 'America/New_York';

type Row = [question: string, from: string, to: string, spoken: string, rest: string, moment?: true];

function check(nowIso: string, tz: string, rows: Row[]) {
  const now = s(nowIso);
  for (const [question, from, to, spoken, rest, moment] of rows) {
    const w = readWhen(question, now, { tz });
    expect(w, question).not.toBeNull();
    expect({ q: question, from: w?.from, to: w?.to, spoken: w?.spoken, rest: w?.rest, at: w?.at }).toEqual({
      q: question,
      from: s(from),
      to: s(to),
      spoken,
      rest,
      at: moment ? s(from) : undefined,
    });
  }
}

describe('readWhen on Thursday 3 December 2026, 14:30 in London (UTC+0)', () => {
  const now = '2026-12-03T14:30:00Z';
  it('reads days and parts of days', () =>
    check(now, LONDON, [
      [
        'was the garage door open last night?',
        '2026-12-02T18:00:00Z',
        '2026-12-03T06:00:00Z',
        'last night',
        'was the garage door open?',
      ],
      [
        'how warm was the bedroom yesterday evening?',
        '2026-12-02T18:00:00Z',
        '2026-12-02T22:00:00Z',
        'yesterday evening',
        'how warm was the bedroom?',
      ],
      [
        'was the heating on yesterday morning',
        '2026-12-02T06:00:00Z',
        '2026-12-02T12:00:00Z',
        'yesterday morning',
        'was the heating on',
      ],
      [
        'how many times did the kettle run today',
        '2026-12-03T00:00:00Z',
        now,
        'today',
        'how many times did the kettle run',
      ],
      ['was anyone home yesterday?', '2026-12-02T00:00:00Z', '2026-12-03T00:00:00Z', 'yesterday', 'was anyone home?'],
      [
        'was the door open this morning',
        '2026-12-03T06:00:00Z',
        '2026-12-03T12:00:00Z',
        'this morning',
        'was the door open',
      ],
      ['was the light on this afternoon', '2026-12-03T12:00:00Z', now, 'this afternoon', 'was the light on'],
      [
        'was the door open on Tuesday?',
        '2026-12-01T00:00:00Z',
        '2026-12-02T00:00:00Z',
        'on Tuesday',
        'was the door open?',
      ],
      [
        'how cold was it on Tuesday evening',
        '2026-12-01T18:00:00Z',
        '2026-12-01T22:00:00Z',
        'on Tuesday evening',
        'how cold was it',
      ],
      [
        'was the door locked the night before last',
        '2026-12-01T18:00:00Z',
        '2026-12-02T06:00:00Z',
        'the night before last',
        'was the door locked',
      ],
      [
        'was the light on during the night',
        '2026-12-02T22:00:00Z',
        '2026-12-03T06:00:00Z',
        'during the night',
        'was the light on',
      ],
      [
        'energy used the day before yesterday',
        '2026-12-01T00:00:00Z',
        '2026-12-02T00:00:00Z',
        'on Tuesday',
        'energy used',
      ],
    ]));
  it("a day that is today's weekday means the one a week ago; a date without a year is the past one", () =>
    check(now, LONDON, [
      [
        'was the door open on Thursday',
        '2026-11-26T00:00:00Z',
        '2026-11-27T00:00:00Z',
        'on 26 November',
        'was the door open',
      ],
      [
        'was it cold on 10 December',
        '2025-12-10T00:00:00Z',
        '2025-12-11T00:00:00Z',
        'on 10 December 2025',
        'was it cold',
      ],
    ]));
  it('reads clock times as moments', () =>
    check(now, LONDON, [
      [
        'was the garage door open at 11 pm',
        '2026-12-02T23:00:00Z',
        '2026-12-02T23:00:00Z',
        'yesterday at 11 pm',
        'was the garage door open',
        true,
      ],
      [
        'how warm was the bedroom at 7:30 this morning',
        '2026-12-03T07:30:00Z',
        '2026-12-03T07:30:00Z',
        'at 7:30 am this morning',
        'how warm was the bedroom',
        true,
      ],
      ['was the kettle on at 9', '2026-12-03T09:00:00Z', '2026-12-03T09:00:00Z', 'at 9 am', 'was the kettle on', true],
      [
        'was anyone home at 3',
        '2026-12-02T15:00:00Z',
        '2026-12-02T15:00:00Z',
        'yesterday at 3 pm',
        'was anyone home',
        true,
      ],
      [
        'what was the temperature at 6 yesterday',
        '2026-12-02T18:00:00Z',
        '2026-12-02T18:00:00Z',
        'at 6 pm yesterday',
        'what was the temperature',
        true,
      ],
      [
        'was the door locked last night at 11',
        '2026-12-02T23:00:00Z',
        '2026-12-02T23:00:00Z',
        'at 11 pm last night',
        'was the door locked',
        true,
      ],
      [
        'was the tv on at 2 last night',
        '2026-12-03T02:00:00Z',
        '2026-12-03T02:00:00Z',
        'at 2 am last night',
        'was the tv on',
        true,
      ],
      [
        'was the door shut at midnight',
        '2026-12-03T00:00:00Z',
        '2026-12-03T00:00:00Z',
        'at midnight',
        'was the door shut',
        true,
      ],
      [
        'was the heating on on Sunday at 3',
        '2026-11-29T15:00:00Z',
        '2026-11-29T15:00:00Z',
        'at 3 pm on Sunday',
        'was the heating on',
        true,
      ],
      [
        'how warm was it this time yesterday',
        '2026-12-02T14:30:00Z',
        '2026-12-02T14:30:00Z',
        'this time yesterday',
        'how warm was it',
        true,
      ],
      [
        'was the light on 2 hours ago',
        '2026-12-03T12:30:00Z',
        '2026-12-03T12:30:00Z',
        '2 hours ago',
        'was the light on',
        true,
      ],
    ]));
  it('reads between … and … as the most recent past occurrence', () =>
    check(now, LONDON, [
      [
        'was anyone home between 2 and 4',
        '2026-12-02T14:00:00Z',
        '2026-12-02T16:00:00Z',
        'between 2 pm and 4 pm yesterday',
        'was anyone home',
      ],
      [
        'was anyone home between 10 and 11',
        '2026-12-03T10:00:00Z',
        '2026-12-03T11:00:00Z',
        'between 10 am and 11 am',
        'was anyone home',
      ],
      [
        'was the door open between 10 and 11 last night',
        '2026-12-02T22:00:00Z',
        '2026-12-02T23:00:00Z',
        'between 10 pm and 11 pm last night',
        'was the door open',
      ],
      [
        'was the tv on between 10 and 2 pm',
        '2026-12-03T10:00:00Z',
        '2026-12-03T14:00:00Z',
        'between 10 am and 2 pm',
        'was the tv on',
      ],
      [
        'was the tv on between 11 and 1',
        '2026-12-03T11:00:00Z',
        '2026-12-03T13:00:00Z',
        'between 11 am and 1 pm',
        'was the tv on',
      ],
      [
        'was the tv on between 11 and 1 last night',
        '2026-12-02T23:00:00Z',
        '2026-12-03T01:00:00Z',
        'between 11 pm and 1 am last night',
        'was the tv on',
      ],
      [
        'was the tv on between 11 pm and 1 am',
        '2026-12-02T23:00:00Z',
        '2026-12-03T01:00:00Z',
        'between 11 pm and 1 am last night',
        'was the tv on',
      ],
      [
        'who was home from 9 to 5 yesterday',
        '2026-12-02T09:00:00Z',
        '2026-12-02T17:00:00Z',
        'between 9 am and 5 pm yesterday',
        'who was home',
      ],
      [
        'was it on yesterday between 2pm and 4:30pm',
        '2026-12-02T14:00:00Z',
        '2026-12-02T16:30:00Z',
        'between 2 pm and 4:30 pm yesterday',
        'was it on',
      ],
    ]));
  it('reads since … up to now', () =>
    check(now, LONDON, [
      [
        'how many times did the door open since 6',
        '2026-12-03T06:00:00Z',
        now,
        'since 6 am',
        'how many times did the door open',
      ],
      [
        'how many times did the door open since noon',
        '2026-12-03T12:00:00Z',
        now,
        'since noon',
        'how many times did the door open',
      ],
      ['has the kettle run since yesterday', '2026-12-02T00:00:00Z', now, 'since yesterday', 'has the kettle run'],
      [
        'has anyone come home since last night',
        '2026-12-02T18:00:00Z',
        now,
        'since last night',
        'has anyone come home',
      ],
      ['how much energy since Tuesday', '2026-12-01T00:00:00Z', now, 'since Tuesday', 'how much energy'],
    ]));
  it('reads rolling spans and weeks', () =>
    check(now, LONDON, [
      ['was the door opened in the last hour', '2026-12-03T13:30:00Z', now, 'in the last hour', 'was the door opened'],
      ['how much power in the past 2 days', '2026-12-01T14:30:00Z', now, 'in the last 2 days', 'how much power'],
      [
        'was it opened in the last 30 minutes?',
        '2026-12-03T14:00:00Z',
        now,
        'in the last 30 minutes',
        'was it opened?',
      ],
      ['was the heating on in the last week', '2026-11-26T14:30:00Z', now, 'in the last week', 'was the heating on'],
      [
        'how many times did the washing machine run last week',
        '2026-11-23T00:00:00Z',
        '2026-11-30T00:00:00Z',
        'last week',
        'how many times did the washing machine run',
      ],
      ['how much energy this week', '2026-11-30T00:00:00Z', now, 'this week', 'how much energy'],
      [
        'was the garage open over the weekend',
        '2026-11-28T00:00:00Z',
        '2026-11-30T00:00:00Z',
        'last weekend',
        'was the garage open',
      ],
    ]));
  it('keeps a window that is wholly to come (from > now) unclipped; clips one under way to now', () => {
    const w = readWhen('will it be cold this evening', s(now), { tz: LONDON });
    expect([w?.from, w?.to]).toEqual([s('2026-12-03T18:00:00Z'), s('2026-12-03T22:00:00Z')]);
    const t = readWhen('tonight', s(now), { tz: LONDON });
    expect([t?.from, t?.to, t?.spoken]).toEqual([s('2026-12-03T18:00:00Z'), s('2026-12-04T06:00:00Z'), 'tonight']);
  });
  it('answers null when no time is named, and does not read values as times', () => {
    for (const q of [
      'when did the kettle last run',
      'is Anna home',
      'where are my keys?',
      'was the bedroom between 18 and 20 degrees',
      'how warm is the living room',
      'when is the next bin day',
    ])
      expect(readWhen(q, s(now), { tz: LONDON }), q).toBeNull();
  });
});

describe('near midnight', () => {
  it('at 00:10 "last night" is the night now ending and "since 6" is 6 pm yesterday', () =>
    check('2026-12-03T00:10:00Z', LONDON, [
      [
        'was the garage door open last night',
        '2026-12-02T18:00:00Z',
        '2026-12-03T00:10:00Z',
        'last night',
        'was the garage door open',
      ],
      ['tonight', '2026-12-02T18:00:00Z', '2026-12-03T00:10:00Z', 'tonight', ''],
      ['today', '2026-12-03T00:00:00Z', '2026-12-03T00:10:00Z', 'today', ''],
      ['yesterday evening', '2026-12-02T18:00:00Z', '2026-12-02T22:00:00Z', 'yesterday evening', ''],
      ['since 6', '2026-12-02T18:00:00Z', '2026-12-03T00:10:00Z', 'since 6 pm yesterday', ''],
      ['at 11', '2026-12-02T23:00:00Z', '2026-12-02T23:00:00Z', 'yesterday at 11 pm', '', true],
      ['in the last hour', '2026-12-02T23:10:00Z', '2026-12-03T00:10:00Z', 'in the last hour', ''],
      ['at midnight', '2026-12-03T00:00:00Z', '2026-12-03T00:00:00Z', 'at midnight', '', true],
    ]));
  it('at 23:50 "last night" is still yesterday\'s and a bare hour is this evening\'s', () =>
    check('2026-12-03T23:50:00Z', LONDON, [
      ['last night', '2026-12-02T18:00:00Z', '2026-12-03T06:00:00Z', 'last night', ''],
      ['tonight', '2026-12-03T18:00:00Z', '2026-12-03T23:50:00Z', 'tonight', ''],
      ['at 9', '2026-12-03T21:00:00Z', '2026-12-03T21:00:00Z', 'at 9 pm', '', true],
      ['between 2 and 4', '2026-12-03T14:00:00Z', '2026-12-03T16:00:00Z', 'between 2 pm and 4 pm', ''],
      ['since 6', '2026-12-03T18:00:00Z', '2026-12-03T23:50:00Z', 'since 6 pm', ''],
    ]));
});

describe('across DST changes', () => {
  it('London spring forward (29 March 2026): last night is 11 hours, yesterday 24, today began at 00:00 GMT', () =>
    check('2026-03-29T11:00:00Z', LONDON, [
      ['last night', '2026-03-28T18:00:00Z', '2026-03-29T05:00:00Z', 'last night', ''],
      ['yesterday', '2026-03-28T00:00:00Z', '2026-03-29T00:00:00Z', 'yesterday', ''],
      ['today', '2026-03-29T00:00:00Z', '2026-03-29T11:00:00Z', 'today', ''],
      ['since 6', '2026-03-29T05:00:00Z', '2026-03-29T11:00:00Z', 'since 6 am', ''],
      ['in the last 3 hours', '2026-03-29T08:00:00Z', '2026-03-29T11:00:00Z', 'in the last 3 hours', ''],
      ['this time yesterday', '2026-03-28T12:00:00Z', '2026-03-28T12:00:00Z', 'this time yesterday', '', true],
    ]));
  it('London fall back (25 October 2026): last night is 13 hours; 1:30 am is the first of the two', () =>
    check('2026-10-25T12:00:00Z', LONDON, [
      ['last night', '2026-10-24T17:00:00Z', '2026-10-25T06:00:00Z', 'last night', ''],
      ['today', '2026-10-24T23:00:00Z', '2026-10-25T12:00:00Z', 'today', ''],
      ['at 1:30 am', '2026-10-25T00:30:00Z', '2026-10-25T00:30:00Z', 'at 1:30 am', '', true],
      [
        'between 1 and 3 last night',
        '2026-10-25T00:00:00Z',
        '2026-10-25T03:00:00Z',
        'between 1 am and 3 am last night',
        '',
      ],
    ]));
  it('New York spring forward (8 March 2026) and fall back (1 November 2026)', () => {
    check('2026-03-08T17:00:00Z', NY, [
      ['last night', '2026-03-07T23:00:00Z', '2026-03-08T10:00:00Z', 'last night', ''],
      ['yesterday evening', '2026-03-07T23:00:00Z', '2026-03-08T03:00:00Z', 'yesterday evening', ''],
      ['this morning', '2026-03-08T10:00:00Z', '2026-03-08T16:00:00Z', 'this morning', ''],
    ]);
    check('2026-11-01T17:00:00Z', NY, [
      ['last night', '2026-10-31T22:00:00Z', '2026-11-01T11:00:00Z', 'last night', ''],
      ['at 11 pm', '2026-11-01T03:00:00Z', '2026-11-01T03:00:00Z', 'yesterday at 11 pm', '', true],
    ]);
  });
});

describe('configured day parts', () => {
  it('an [ask] evening of 17–23 and a night ending at 7 move the windows', () => {
    const dayParts = { morning: [7, 12], afternoon: [12, 17], evening: [17, 23], night: [23, 7] } as const;
    const now = s('2026-12-03T14:30:00Z');
    const opts = { tz: LONDON, dayParts: structuredClone(dayParts) as never };
    const ln = readWhen('last night', now, opts);
    expect([ln?.from, ln?.to]).toEqual([s('2026-12-02T17:00:00Z'), s('2026-12-03T07:00:00Z')]);
    const ev = readWhen('yesterday evening', now, opts);
    expect([ev?.from, ev?.to]).toEqual([s('2026-12-02T17:00:00Z'), s('2026-12-02T23:00:00Z')]);
    const m = readWhen('this morning', now, opts);
    expect([m?.from, m?.to]).toEqual([s('2026-12-03T07:00:00Z'), s('2026-12-03T12:00:00Z')]);
  });
});
