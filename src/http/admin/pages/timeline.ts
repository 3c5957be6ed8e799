/**
 * A two-state sensor's history as a timeline: one row per day (the home's zone, newest on top),
 * midnight to midnight, the active state (open, on, home, motion) drawn as bands. SVG with
 * presentation attributes and classes only (the CSP allows no inline style); each band has its
 * times as a tooltip and each row says them in words (aria-label), so it reads without the drawing.
 */
import type { Services } from '../../../services.js';
import { localToUtc, wallTime } from '../../../lib/tz.js';
import { html, type Html } from '../html.js';
import { when } from '../layout.js';
import { runsOf, type Run, type TwoState } from '../two-state.js';

export const TIMELINE_DAYS = 7;
/** At most this many raw readings are read for the timeline (the newest; bounded on a busy sensor). */
const READ_LIMIT = 5000;
/** A band is drawn at least this wide (seconds of a day), so a door open for a minute still shows. */
const MIN_BAND = 600;

/** The start of the local day `back` days before the one holding `ts`. */
function dayStart(ts: number, back: number, tz: string): number {
  const w = wallTime(ts, tz);
  const d = new Date(Date.UTC(w.year, w.month - 1, w.day - back));
  return localToUtc(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: 0, minute: 0, second: 0 },
    tz,
  );
}

export function timeline(s: Services, entity: string, metric: string, state: TwoState): Html {
  const tz = s.config.timeseries.timezone;
  const now = s.clock.now();
  const from = dayStart(now, TIMELINE_DAYS - 1, tz);
  const q = { entity_name: entity, metric, granularity: 'raw' as const };
  const points = s.timeseries.queryStream({ ...q, start_ts: from, end_ts: now, limit: READ_LIMIT }).points as {
    ts: number;
    value: unknown;
  }[];
  const before = (
    s.timeseries.queryStream({ ...q, start_ts: 0, end_ts: Math.max(0, from - 0.001), limit: 1 }).points as {
      ts: number;
      value: unknown;
    }[]
  )[0];
  const runs = runsOf(points, state, from, now, before);
  const clock = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit' });
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: tz, weekday: 'short', day: 'numeric', month: 'short' });
  const t = (ts: number) => clock.format(new Date(ts * 1000));
  const span = (r: Run, end: number) => `${t(r.from)}–${r.to >= now ? 'now' : r.to >= end ? '24:00' : t(r.to)}`;

  const rows: Html[] = [];
  for (let back = 0; back < TIMELINE_DAYS; back++) {
    const start = dayStart(now, back, tz);
    const end = dayStart(now, back - 1, tz);
    const width = end - start;
    const mine = runs
      .filter((r) => r.to > start && r.from < end)
      .map((r) => ({ ...r, from: Math.max(r.from, start), to: Math.min(r.to, end) }));
    const known = mine.length ? mine[0].from - start : 0; // before the first reading: nothing known
    const active = mine.filter((r) => r.active);
    const said = !mine.length
      ? 'no readings'
      : active.length
        ? `${state.active} ${active.map((r) => span(r, end)).join(', ')}`
        : `${state.idle} all ${back === 0 ? 'day so far' : 'day'}`;
    const label = back === 0 ? 'Today' : back === 1 ? 'Yesterday' : day.format(new Date(start * 1000));
    const bands = active.map((r) => {
      const w = Math.max(r.to - r.from, MIN_BAND);
      const x = Math.min(r.from - start, width - w);
      return html`<rect class="on" x="${x}" y="0" width="${w}" height="10"><title>${state.active} ${span(r, end)}</title></rect>`;
    });
    const past = Math.min(now, end) - start;
    rows.push(
      html`<li><span class="day">${label}</span><svg class="bands" viewBox="0 0 ${width} 10" preserveAspectRatio="none" role="img" aria-label="${label}: ${said}">${
        known > 0 ? html`<rect class="none" x="0" y="0" width="${known}" height="10"></rect>` : ''
      }${mine.length ? html`<rect class="off" x="${known}" y="0" width="${Math.max(0, past - known)}" height="10"></rect>` : ''}${bands}</svg></li>`,
    );
  }
  const last = runs.at(-1);
  // One run over the whole window began at the reading before it (or earlier: that is what is known).
  const since = last && last.from === from && before ? before.ts : last?.from;
  return html`<figure class="timeline" data-metric="${metric}"><figcaption>${metric}: ${
    last
      ? html`<strong>${last.active ? state.active : state.idle}</strong> since ${when(since, now)}`
      : html`no readings in the last ${TIMELINE_DAYS} days`
  }</figcaption>
<p class="legend"><span class="key on"></span>${state.active} <span class="key off"></span>${state.idle} <span class="muted">(the home's time, ${tz})</span></p>
<ol class="days">${rows}</ol>
<p class="axis" aria-hidden="true"><span>0</span><span>6</span><span>12</span><span>18</span><span>24</span></p>
</figure>`;
}
