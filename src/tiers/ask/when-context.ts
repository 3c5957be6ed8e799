/**
 * The day a question names, read from one chrono-node result: a day ("yesterday", "on Tuesday",
 * "3 days ago"), a part of one ("this morning", "yesterday evening", "last night", "tonight"), a
 * rolling span ("in the last 2 hours"), a calendar week or month ("last week", "this week"), a
 * weekend, or a moment ("2 hours ago", "now"). Windows are [from, to) in epoch seconds, not yet
 * clipped to now. chrono reads the words; the windows are the home's (calendar.ts), so DST and the
 * configured day parts hold.
 */
import type { ParsedResult } from 'chrono-node';
import {
  addDays,
  at,
  type DayPart,
  type DayParts,
  dateOf,
  dayDiff,
  dayLabel,
  dayWindow,
  type LocalDate,
  namedNight,
  partWindow,
  weekdayOf,
} from './calendar.js';
import { wallTime } from '../../lib/tz.js';
import { type Clock, clockOf } from './when-clock.js';

export interface Home {
  now: number;
  tz: string;
  parts: DayParts;
  today: LocalDate;
}

export interface Context {
  start: number; // indices of the words in the question
  end: number;
  window?: [number, number];
  /** A day or part of a day, inside which a clock time is placed. */
  dayLike: boolean;
  moment?: number;
  clock?: Clock;
  spoken: string;
}

/** Words people put before a time phrase that belong to it ("in the last hour", "earlier today"). */
const LEAD =
  /(?:\b(?:in the|over the|during the|for the|within the|on the|at the|in|during|over|at|the|this|earlier|early|late)\s+)$/i;

function lead(question: string, start: number): number {
  let s = start;
  for (let i = 0; i < 2; i++) {
    const m = LEAD.exec(question.slice(0, s));
    if (!m) break;
    s -= m[0].length;
  }
  return s;
}

const has = (text: string, word: string) => new RegExp(`\\b${word}\\b`, 'i').test(text);

/** The date chrono read, or the most recent past weekday it named (today excluded: that is "today"). */
function dateIn(r: ParsedResult, home: Home): LocalDate | null {
  const tags = r.tags();
  const casual = ['today', 'yesterday', 'tomorrow', 'tonight'].some((c) => tags.has(`casualReference/${c}`));
  if (casual || r.start.isCertain('day')) {
    const d = { year: r.start.get('year') ?? 0, month: r.start.get('month') ?? 1, day: r.start.get('day') ?? 1 };
    if (!casual && !r.start.isCertain('year') && dayDiff(home.today, d) > 0) d.year -= 1;
    return d;
  }
  if (r.start.isCertain('weekday')) {
    const back = (weekdayOf(home.today) - (r.start.get('weekday') ?? 0) + 7) % 7 || 7;
    return addDays(home.today, -back);
  }
  return null;
}

const partOf = (text: string): DayPart | 'night' | null =>
  has(text, 'tonight') || has(text, 'night')
    ? 'night'
    : ((['morning', 'afternoon', 'evening'] as const).find((p) => has(text, p)) ?? null);

function spokenPart(d: LocalDate, part: DayPart, home: Home): string {
  const day = dayLabel(d, home.now, home.tz);
  if (part === 'night') return day === 'yesterday' ? 'last night' : day === 'today' ? 'tonight' : `${day} night`;
  return day === 'today' ? `this ${part}` : `${day} ${part}`;
}

/** Relative results: rolling spans, calendar weeks and months, "… ago". */
function relative(r: ParsedResult, q: string, start: number, home: Home): Context | null {
  const { now, tz, today } = home;
  const text = r.text.toLowerCase();
  const end = r.index + r.text.length;
  if (/\bago$/.test(text)) {
    const moment = Math.floor(r.start.date().getTime() / 1000);
    if (r.tags().has('result/relativeDateAndTime')) return { start, end, moment, dayLike: false, spoken: `${text}` };
    const d = dateIn(r, home) ?? dateOf(moment, tz);
    return { start, end, window: dayWindow(d, tz), dayLike: true, spoken: dayLabel(d, now, tz) };
  }
  if (!/^(last|past)\b/.test(text)) {
    // "the day before yesterday", "in 2 hours": a day, or a moment.
    const moment = Math.floor(r.start.date().getTime() / 1000);
    if (r.tags().has('result/relativeDateAndTime')) return { start, end, moment, dayLike: false, spoken: text };
    const d = dateIn(r, home) ?? dateOf(moment, tz);
    return { start: lead(q, start), end, window: dayWindow(d, tz), dayLike: true, spoken: dayLabel(d, now, tz) };
  }
  const s = lead(q, start);
  const unit = /\b(week|month)$/.exec(text)?.[1];
  if (text.startsWith('last') && unit && s === start) {
    // "last week": the previous Monday–Sunday; "last month": the previous calendar month.
    if (unit === 'week') {
      const monday = addDays(today, -((weekdayOf(today) + 6) % 7));
      return { start, end, window: [at(addDays(monday, -7), tz), at(monday, tz)], dayLike: false, spoken: 'last week' };
    }
    const first = { ...today, day: 1 };
    const prev = {
      year: first.month === 1 ? first.year - 1 : first.year,
      month: first.month === 1 ? 12 : first.month - 1,
      day: 1,
    };
    return { start, end, window: [at(prev, tz), at(first, tz)], dayLike: false, spoken: 'last month' };
  }
  const from = Math.floor(r.start.date().getTime() / 1000);
  return { start: s, end, window: [from, now], dayLike: false, spoken: `in the ${text.replace(/^past\b/, 'last')}` };
}

/** "this week" (Monday to now), "weekend" (the most recent Saturday–Sunday, or this one while it lasts). */
function weeks(r: ParsedResult, q: string, start: number, home: Home): Context | null {
  const { now, tz, today } = home;
  const text = r.text.toLowerCase();
  const end = r.index + r.text.length;
  if (/^this week$/.test(text)) {
    const monday = addDays(today, -((weekdayOf(today) + 6) % 7));
    return { start, end, window: [at(monday, tz), now], dayLike: false, spoken: 'this week' };
  }
  if (!has(text, 'weekend')) return null;
  const wd = weekdayOf(today);
  const inWeekend = wd === 0 || wd === 6;
  const saturday = addDays(today, -((wd + 1) % 7));
  const sat = inWeekend && !has(text, 'last') ? saturday : addDays(saturday, inWeekend ? -7 : 0);
  const current = sat === saturday && inWeekend;
  return {
    start: lead(q, start),
    end,
    window: [at(sat, tz), at(addDays(sat, 2), tz)],
    dayLike: false,
    spoken: current ? 'this weekend' : 'last weekend',
  };
}

/** The context one chrono result names, or null when it names nothing this reader uses (e.g. "next year"). */
export function contextOf(r: ParsedResult, q: string, home: Home): Context | null {
  const { now, tz, parts, today } = home;
  const tags = r.tags();
  const text = r.text.toLowerCase();
  const start = r.index;
  let end = r.index + r.text.length;
  if (tags.has('casualReference/now')) return { start, end, moment: now, dayLike: false, spoken: 'now' };
  if (tags.has('result/relativeDate')) return relative(r, q, start, home);
  const week = weeks(r, q, start, home);
  if (week || has(text, 'week') || has(text, 'month') || has(text, 'year')) return week;

  let date = dateIn(r, home);
  const part = partOf(text);
  const clock = clockOf(r) ?? undefined;
  const s = lead(q, start);
  // "this time yesterday": the same clock time, a day back.
  const thisTime = /\bthis time\s+$/i.exec(q.slice(0, start));
  if (date && thisTime && !clock) {
    const w = wallTime(now, tz);
    const moment = at(date, tz, w.hour, w.minute);
    return {
      start: start - thisTime[0].length,
      end,
      moment,
      dayLike: false,
      spoken: `this time ${dayLabel(date, now, tz)}`,
    };
  }
  // "the night before last"
  const beforeLast = /^\s+before last\b/i.exec(q.slice(end));
  if (part === 'night' && beforeLast) {
    end += beforeLast[0].length;
    date = addDays(today, -2);
  }
  if (part === 'night') {
    const named = /\b(last|tonight|yesterday)\b/i.test(text) || date || beforeLast;
    if (!named && !clock) {
      // "in the night", "during the night": the night part proper (22–06), the most recent that has begun.
      const d = now >= at(today, tz, parts.night[0]) ? today : addDays(today, -1);
      return { start: s, end, window: partWindow(d, 'night', parts, tz), dayLike: true, spoken: 'during the night' };
    }
    // "last night" is always yesterday's: before 06:00 that is the night now ending (SPEC §5).
    if (has(text, 'last')) date = addDays(today, -1);
    if (has(text, 'tonight')) date = now < at(today, tz, parts.night[1]) ? addDays(today, -1) : today;
    date ??= addDays(today, -1);
    const spoken = beforeLast
      ? 'the night before last'
      : has(text, 'tonight')
        ? 'tonight'
        : spokenPart(date, 'night', home);
    return { start: s, end, window: namedNight(date, parts, tz), dayLike: true, clock, spoken };
  }
  if (part) {
    if (!date) {
      // "this morning" is today's; a bare "in the morning" is today's once it has begun, else yesterday's.
      const begun = now >= at(today, tz, parts[part][0]);
      date = has(text, 'this') || begun ? today : addDays(today, -1);
    }
    return {
      start: s,
      end,
      window: partWindow(date, part, parts, tz),
      dayLike: true,
      clock,
      spoken: spokenPart(date, part, home),
    };
  }
  if (date)
    return { start: s, end, window: dayWindow(date, tz), dayLike: true, clock, spoken: dayLabel(date, now, tz) };
  if (clock) return { start: s, end, dayLike: false, clock, spoken: '' };
  return null;
}
