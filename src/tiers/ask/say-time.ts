/**
 * Times as a voice says them (SPEC §5 Ask: "from 10:30 pm to 11:55 pm last night", "yesterday at
 * 9 pm, 14 hours ago"): the home's zone, a 12-hour clock, days named relative to now, no seconds.
 */
import { ageText } from '../memory/decay.js';
import { addDays, type DayParts, DEFAULT_DAY_PARTS, dateOf, dayDiff, dayLabel, namedNight } from './calendar.js';
import { wallTime } from '../../lib/tz.js';

/** Rounded to the minute: a spoken time never carries seconds. */
const toMinute = (ts: number) => Math.round(ts / 60) * 60;

/** "10:30 pm", "9 pm", "12:05 am", "noon", "midnight". */
export function sayClock(ts: number, tz: string): string {
  const { hour, minute } = wallTime(toMinute(ts), tz);
  if (minute === 0 && hour === 0) return 'midnight';
  if (minute === 0 && hour === 12) return 'noon';
  const h12 = hour % 12 === 0 ? 12 : hour % 12;
  return `${h12}${minute === 0 ? '' : `:${String(minute).padStart(2, '0')}`} ${hour < 12 ? 'am' : 'pm'}`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** "1 hour and 25 minutes", "45 minutes", "2 days and 3 hours", "30 seconds" — two units at most. */
export function sayDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return plural(s, 'second');
  const minutes = Math.round(s / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  if (minutes < 24 * 60) {
    const [h, m] = [Math.floor(minutes / 60), minutes % 60];
    return m === 0 ? plural(h, 'hour') : `${plural(h, 'hour')} and ${plural(m, 'minute')}`;
  }
  const hours = Math.round(s / 3600);
  const [d, h] = [Math.floor(hours / 24), hours % 24];
  return h === 0 ? plural(d, 'day') : `${plural(d, 'day')} and ${plural(h, 'hour')}`;
}

/** "at 9 pm" today, else "yesterday at 9 pm", "on Tuesday at 9 pm", "on 24 November at 9 pm". */
export function sayDayAndClock(ts: number, now: number, tz: string): string {
  const t = toMinute(ts);
  const label = dayLabel(dateOf(t, tz), now, tz);
  return label === 'today' ? `at ${sayClock(t, tz)}` : `${label} at ${sayClock(t, tz)}`;
}

/** "yesterday at 9 pm, 14 hours ago"; "at 10:05 am, 25 minutes ago"; a future moment "…, in 2 hours". */
export function sayMoment(ts: number, now: number, tz: string): string {
  const when = sayDayAndClock(ts, now, tz);
  const age = now - ts;
  if (Math.abs(age) < 60) return `${when}, just now`;
  if (age > 0) return `${when}, ${ageText(age)}`;
  return `${when}, in ${ageText(-age).replace(/ ago$/, '')}`;
}

/** The clock and its day, for a time inside a span: "10:30 pm", "10:30 pm yesterday", "1 am on Tuesday". */
function clockOn(ts: number, now: number, tz: string, withDay: boolean): string {
  if (!withDay) return sayClock(ts, tz);
  return `${sayClock(ts, tz)} ${dayLabel(dateOf(toMinute(ts), tz), now, tz)}`;
}

/**
 * A span of time: "from 10:30 pm to 11:55 pm last night", "from 2 pm to 4:15 pm yesterday",
 * "from 11 pm on Monday to 6:30 am on Tuesday", "since 10:30 pm" (a span that runs to now).
 * `dayParts` decides what "last night" covers (default SPEC §5's).
 */
export function saySpan(
  from: number,
  to: number,
  now: number,
  tz: string,
  dayParts: DayParts = DEFAULT_DAY_PARTS,
): string {
  const [f, t] = [toMinute(from), toMinute(to)];
  const today = dateOf(now, tz);
  const [fd, td] = [dateOf(f, tz), dateOf(t, tz)];
  if (to >= now) {
    const day = dayLabel(fd, now, tz);
    return `since ${sayClock(f, tz)}${day === 'today' ? '' : ` ${day}`}`;
  }
  if (f === t) return `at ${sayClock(f, tz)} ${dayLabel(fd, now, tz)}`.replace(/ today$/, '');
  const [nightFrom, nightTo] = namedNight(addDays(today, -1), dayParts, tz);
  if (f >= nightFrom && t <= nightTo) return `from ${sayClock(f, tz)} to ${sayClock(t, tz)} last night`;
  if (dayDiff(fd, td) === 0) {
    const day = dayLabel(fd, now, tz);
    return `from ${sayClock(f, tz)} to ${sayClock(t, tz)}${day === 'today' ? '' : ` ${day}`}`;
  }
  return `from ${clockOn(f, now, tz, true)} to ${clockOn(t, now, tz, true)}`;
}
