/**
 * `get_trends` (SPEC §5): a plain-language summary of one metric over `days`, computed from rollups
 * — level, range, direction, slope per day, and the change against the period before. The periods
 * are both complete and the summary names them ("Over the last 24 hours …", "Yesterday …"):
 * trends-window.ts (#34 item 6).
 * With an LLM configured the sentence may be rephrased, but every number in the rephrasing must
 * be one of the computed numbers; otherwise the computed sentence is kept.
 */
import { linearRegression, rSquared } from 'simple-statistics';
import type { Llm } from '../ai/types.js';
import type { Clock } from '../lib/clock.js';
import { notFound } from '../lib/errors.js';
import type { RollupRow, TimeseriesService } from '../tiers/timeseries/timeseries.service.js';
import { formatValue, metricWords } from './context.js';
import type { GetTrendsInput } from './patterns.schemas.js';
import { trendPeriod } from './trends-window.js';

const NUMBER = /-?\d+(?:[.,]\d+)?/g;

/** Numbers an LLM rephrasing may use: those in the computed text (and the period length). */
export function numbersPreserved(original: string, rephrased: string): boolean {
  const allowed = new Set((original.match(NUMBER) ?? []).map((n) => n.replace(',', '.').replace(/^-/, '')));
  const used = (rephrased.match(NUMBER) ?? []).map((n) => n.replace(',', '.').replace(/^-/, ''));
  return used.length > 0 && used.every((n) => allowed.has(n));
}

export function createTrends(deps: { timeseries: TimeseriesService; clock: Clock; llm: Llm | null; timeZone: string }) {
  const { timeseries, clock } = deps;

  return async function getTrends(input: GetTrendsInput) {
    const s = timeseries.repo.seriesId(input.entity_name, input.metric);
    if (!s) throw notFound(`metric: no readings of ${input.metric} for ${input.entity_name}`);
    timeseries.rollup([s.id]);
    const now = clock.now();
    const period = trendPeriod(timeseries, s.id, {
      now,
      days: input.days,
      wholeDays: input.whole_days,
      timeZone: deps.timeZone,
    });
    const cur = period.days;
    const prev = period.previous;
    const what = `${input.entity_name} ${metricWords(input.metric)}`;
    // "Over the last 24 hours …", "Yesterday …": the summary names the window it used.
    const over = period.text === 'yesterday' ? 'Yesterday' : `Over ${period.text}`;
    const window = { window: period.text, from: period.from, to: period.to, whole_days: input.whole_days };
    const warnings: string[] = [];
    if (!cur.length) {
      return {
        result: `No ${metricWords(input.metric)} readings for ${input.entity_name} in ${period.text}.`,
        entity_name: input.entity_name,
        metric: input.metric,
        days: input.days,
        ...window,
        points: 0,
        warnings,
      };
    }
    if (s.value_type !== 'numeric') {
      const tally = new Map<string, number>();
      for (const d of cur) if (d.mode_cat) tally.set(d.mode_cat, (tally.get(d.mode_cat) ?? 0) + 1);
      const [top, n] = [...tally.entries()].sort((a, b) => b[1] - a[1])[0] ?? ['(none)', 0];
      const share = Math.round((n / cur.length) * 100);
      return {
        result: `${over} ${what} was most often '${top}' (${share}% of days with readings).`,
        entity_name: input.entity_name,
        metric: input.metric,
        days: input.days,
        ...window,
        value_type: s.value_type,
        most_common: top,
        share_of_days: share,
        days_with_data: cur.length,
        warnings,
      };
    }
    const f = (v: number) => formatValue(v, s.unit);
    const weighted = (rows: RollupRow[]) =>
      rows.reduce((a, d) => a + (d.avg_num ?? 0) * d.count, 0) /
      Math.max(
        1,
        rows.reduce((a, d) => a + d.count, 0),
      );
    const level = weighted(cur);
    const min = Math.min(...cur.map((d) => d.min_num ?? Infinity));
    const max = Math.max(...cur.map((d) => d.max_num ?? -Infinity));
    const pts: [number, number][] = cur.map((d) => [d.x, d.avg_num ?? level]);
    const fit = pts.length >= 2 ? linearRegression(pts) : { m: 0, b: level };
    const r2 = pts.length >= 3 ? rSquared(pts, (x) => fit.m * x + fit.b) : 0;
    // "Steady" unless the fitted change over the period is material and the fit explains the days.
    const change = fit.m * input.days;
    const direction =
      Math.abs(change) >= Math.max(0.02 * Math.abs(level), 1e-9) && r2 >= 0.3
        ? fit.m > 0
          ? 'rising'
          : 'falling'
        : 'steady';
    const previous = prev.length ? weighted(prev) : null;
    const delta = previous === null ? null : level - previous;
    const slopeText = direction === 'steady' ? 'steady' : `${direction} about ${f(Math.abs(fit.m))} per day`;
    const compare =
      delta === null
        ? ''
        : Math.abs(delta) < 0.005 * Math.max(1, Math.abs(previous!))
          ? `; about the same as ${period.previousText}`
          : `; ${f(Math.abs(delta))} ${delta > 0 ? 'higher' : 'lower'} than ${period.previousText} (${f(previous!)})`;
    let result = `${over} ${what} averaged ${f(level)} (range ${f(min)} to ${f(max)}), ${slopeText}${compare}.`;
    if (deps.llm) {
      try {
        const text = await deps.llm.chat(
          [
            {
              role: 'system',
              content:
                'Rephrase the summary for a voice assistant in one or two short sentences. Keep every number exactly as written; add no numbers.',
            },
            { role: 'user', content: result },
          ],
          { temperature: 0.2 },
        );
        if (numbersPreserved(result, text)) result = text.trim();
        else warnings.push('the LLM rephrasing changed numbers; kept the computed summary');
      } catch (e) {
        warnings.push(`LLM unavailable (${(e as Error).message}); kept the computed summary`);
      }
    }
    return {
      result,
      entity_name: input.entity_name,
      metric: input.metric,
      unit: s.unit,
      days: input.days,
      ...window,
      value_type: s.value_type,
      level,
      min,
      max,
      direction,
      slope_per_day: fit.m,
      r_squared: r2,
      previous_level: previous,
      change_vs_previous: delta,
      days_with_data: cur.length,
      warnings,
    };
  };
}
