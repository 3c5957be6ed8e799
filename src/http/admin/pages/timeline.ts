/**
 * A two-state sensor's history as a timeline: one row per day (the home's zone, newest on top),
 * midnight to midnight, the active state (open, on, home, motion) drawn as bands. SVG with
 * presentation attributes and classes only (the CSP allows no inline style); each band has its
 * times as a tooltip and each row says them in words (aria-label), so it reads without the drawing.
 */
import type { Services } from '../../../services.js';
import { localToUtc, wallTime } from '../../../lib/tz.js';
import { stateRuns, type Run } from '../../../tiers/ask/runs.js';
import type { SubjectSeries } from '../../../tiers/ask/subject.js';
import { stateWords } from '../../../tiers/ask/two-state.js';
import { html, type Html } from '../html.js';
import { when } from '../layout.js';

export const TIMELINE_DAYS = 7;
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

/**
 * The runs come from the ask tier (`stateRuns`: the reading before the window and the window's own,
 * bounded), read with its words (`stateWords`: contact false is open), so the page and `POST /ask`
 * tell the same story.
 */
export function timeline(s: Services, series: SubjectSeries): Html {
  const tz = s.config.timeseries.timezone;
  const now = s.clock.now();
  const from = dayStart(now, TIMELINE_DAYS - 1, tz);
  const { runs } = stateRuns(s.timeseries.reads, series, from, now);
  const [active, idle] = stateWords(series);
  const metric = series.metric;
  const before = s.timeseries.reads.atOrBefore(series.id, from);
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
    const on = mine.filter((r) => r.active);
    const said = !mine.length
      ? 'no readings'
      : on.length
        ? `${active} ${on.map((r) => span(r, end)).join(', ')}`
        : `${idle} all ${back === 0 ? 'day so far' : 'day'}`;
    const label = back === 0 ? 'Today' : back === 1 ? 'Yesterday' : day.format(new Date(start * 1000));
    const bands = on.map((r) => {
      const w = Math.max(r.to - r.from, MIN_BAND);
      const x = Math.min(r.from - start, width - w);
      return html`<rect class="on" x="${x}" y="0" width="${w}" height="10"><title>${active} ${span(r, end)}</title></rect>`;
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
      ? html`<strong>${last.active ? active : idle}</strong> since ${when(since, now)}`
      : html`no readings in the last ${TIMELINE_DAYS} days`
  }</figcaption>
<p class="legend"><span class="key on"></span>${active} <span class="key off"></span>${idle} <span class="muted">(the home's time, ${tz})</span></p>
<ol class="days">${rows}</ol>
<p class="axis" aria-hidden="true"><span>0</span><span>6</span><span>12</span><span>18</span><span>24</span></p>
</figure>`;
}
