/**
 * When a question is about (SPEC §5 Ask, #34 item 3): "last night", "yesterday evening", "on
 * Tuesday", "at 11 pm", "between 2 and 4", "since 6", "in the last hour", "last week" … read in the
 * home's zone with its day parts. chrono-node reads dates and clock times; this file only joins the
 * pieces: a clock range ("between 2 and 4", "since 6") and the day it sits in ("… last night").
 * docs/ask.md "Time phrases" lists every phrase and the choices made for ambiguous ones.
 */
import * as chrono from 'chrono-node';
import { offsetAt } from '../../lib/tz.js';
import { addDays, type DayParts, DEFAULT_DAY_PARTS, dateOf, dayLabel, namedNight } from './calendar.js';
import { sayClock, sayDayAndClock } from './say-time.js';
import { type Clock, clockBefore, clockIn, rangeBefore, rangeIn, readClock } from './when-clock.js';
import { type Context, contextOf, type Home } from './when-context.js';

export type { DayParts } from './calendar.js';
export { DEFAULT_DAY_PARTS } from './calendar.js';

export interface AskWhen {
  /** Epoch seconds, the window (to <= now unless the whole window is still to come); a moment has from === to. */
  from: number;
  to: number;
  /** Set when the phrase names a moment ("at 11 pm"). */
  at?: number;
  /** The words as found in the question ("last night"). */
  phrase: string;
  /** How an answer says it ("last night", "yesterday evening", "on Tuesday", "at 11 pm"). */
  spoken: string;
  /** The question with the phrase taken out. */
  rest: string;
}

// A clock token: "2", "2:30", "7.30", "4 pm", "4pm", "4 p.m.", "6 o'clock", "noon", "midnight". The
// token's meaning is chrono's (readClock); these words only find where a range starts and ends.
const CLOCK = String.raw`(?:\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\b\.?)?(?:\s*o'?clock)?|noon|midday|midnight)(?![\d:])`;
// A number followed by a unit is a value, not a time ("between 18 and 20 degrees").
const NOT_VALUE = String.raw`(?!\s*(?:°|%|degrees?|deg\b|percent|watts?\b|w\b|kw|kwh|minutes?|hours?|days?|weeks?|times?|people|c\b|f\b))`;
const BETWEEN = new RegExp(
  String.raw`\b(?:between|from)\s+(${CLOCK})\s*(?:and|to|till|until|-|–)\s*(${CLOCK})${NOT_VALUE}`,
  'i',
);
const SINCE = new RegExp(String.raw`\bsince\s+(${CLOCK})${NOT_VALUE}`, 'i');
const SINCE_BEFORE = /\bsince\s+$/i;

interface Range {
  start: number;
  end: number;
  a: Clock;
  b?: Clock;
}

function findRange(q: string, ref: chrono.ParsingReference): Range | null {
  for (const re of [BETWEEN, SINCE]) {
    const m = re.exec(q);
    if (!m) continue;
    const a = readClock(m[1], ref);
    const b = m[2] === undefined ? undefined : (readClock(m[2], ref) ?? null);
    if (!a || b === null) continue;
    // "between 10 and 2 pm": an am/pm said once covers both ends.
    const fixedA =
      !a.fixed && b?.fixed && b.hour >= 12 && a.hour < 12 && a.hour + 12 <= b.hour
        ? { ...a, hour: a.hour + 12, fixed: true }
        : a;
    return { start: m.index, end: m.index + m[0].length, a: fixedA, b };
  }
  return null;
}

const blank = (q: string, s: number, e: number) => q.slice(0, s) + ' '.repeat(e - s) + q.slice(e);

function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+([?.!,;:])/g, '$1')
    .replace(/^[\s,]+|[\s,]+$/g, '')
    .replace(/,([?.!])/g, '$1');
}

/** The first chrono result that names a usable time, with "since" taken in when it leads it. */
function findContext(text: string, home: Home, ref: chrono.ParsingReference): (Context & { since: boolean }) | null {
  for (const r of chrono.parse(text, ref)) {
    const c = contextOf(r, text, home);
    if (!c) continue;
    const before = SINCE_BEFORE.exec(text.slice(0, c.start));
    return before ? { ...c, start: c.start - before[0].length, since: true } : { ...c, since: false };
  }
  // "overnight", which chrono does not read: last night.
  const m = /\bovernight\b/i.exec(text);
  if (!m) return null;
  const d = addDays(home.today, -1);
  const window = namedNight(d, home.parts, home.tz);
  return { start: m.index, end: m.index + m[0].length, window, dayLike: true, spoken: 'last night', since: false };
}

const dropOn = (s: string) => s.replace(/^on /, '');
const withDay = (clock: string, spoken: string) => (spoken === 'today' || spoken === '' ? clock : `${clock} ${spoken}`);

/**
 * The time a question is about, or null when it names none. `tz` is the home's IANA zone
 * (config `timeseries.timezone` / HEARTH_TZ); `dayParts` the `[ask]` section's (SPEC defaults).
 */
export function readWhen(question: string, now: number, opts: { tz: string; dayParts?: DayParts }): AskWhen | null {
  const tz = opts.tz;
  const parts = opts.dayParts ?? DEFAULT_DAY_PARTS;
  const home: Home = { now, tz, parts, today: dateOf(now, tz) };
  const ref = { instant: new Date(now * 1000), timezone: offsetAt(now, tz) / 60 };

  const range = findRange(question, ref);
  const ctx = findContext(range ? blank(question, range.start, range.end) : question, home, ref);
  if (!range && !ctx) return null;

  let from: number;
  let to: number;
  let moment: number | undefined;
  let spoken: string;
  const ctxWindow = ctx?.dayLike ? ctx.window : undefined;
  if (range?.b) {
    const span = ctxWindow ? rangeIn(range.a, range.b, ctxWindow, tz) : rangeBefore(range.a, range.b, now, parts, tz);
    if (!span) return null;
    [from, to] = span;
    const day = ctx?.dayLike ? ctx.spoken : nightOrDay(from, to, home);
    spoken = withDay(`between ${sayClock(from, tz)} and ${sayClock(to, tz)}`, day);
  } else if (range) {
    from = (ctxWindow && clockIn(range.a, ctxWindow, tz)) || clockBefore(range.a, now, parts, tz);
    to = now;
    spoken = `since ${withDay(sayClock(from, tz), ctx?.dayLike ? ctx.spoken : dayLabel(dateOf(from, tz), now, tz))}`;
  } else if (ctx?.clock) {
    moment = (ctx.window && clockIn(ctx.clock, ctx.window, tz)) || clockBefore(ctx.clock, now, parts, tz);
    from = to = moment;
    spoken = ctx.window ? withDay(`at ${sayClock(moment, tz)}`, ctx.spoken) : sayDayAndClock(moment, now, tz);
    if (ctx.since) {
      to = now;
      moment = undefined;
      spoken = `since ${spoken.replace(/^at /, '')}`;
    }
  } else if (ctx?.moment !== undefined) {
    from = ctx.moment;
    to = ctx.since ? now : ctx.moment;
    moment = ctx.since ? undefined : ctx.moment;
    spoken = ctx.since ? `since ${ctx.spoken}` : ctx.spoken;
  } else if (ctx?.window) {
    [from, to] = ctx.window;
    if (ctx.since) to = now;
    spoken = ctx.since ? `since ${dropOn(ctx.spoken)}` : ctx.spoken;
  } else {
    return null;
  }
  if (from <= now) to = Math.min(to, now);

  const pieces: { start: number; end: number }[] = [];
  if (range) pieces.push(range);
  if (ctx && (!range || ctx.dayLike)) pieces.push(ctx);
  pieces.sort((x, y) => x.start - y.start);
  const phrase = tidy(pieces.map((p) => question.slice(p.start, p.end)).join(' '));
  let rest = question;
  for (const p of [...pieces].reverse()) rest = rest.slice(0, p.start) + rest.slice(p.end);
  return { from, to, ...(moment !== undefined ? { at: moment } : {}), phrase, spoken, rest: tidy(rest) };
}

/** How a clock range with no day named is placed: "last night" across midnight, else its day. */
function nightOrDay(from: number, to: number, home: Home): string {
  const fd = dateOf(from, home.tz);
  const td = dateOf(to, home.tz);
  const label = dayLabel(fd, home.now, home.tz);
  if (fd.day !== td.day && label === 'yesterday') return 'last night';
  return label;
}
