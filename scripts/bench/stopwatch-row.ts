/** One row of `npm run bench -- --only stopwatch`: a timing the suite used to assert, its same-run baseline, the old bound. */
import type { BenchRow } from './common.js';

export function row(
  what: string,
  value: number,
  baseline: { what: string; value: number },
  target: number,
  note: string,
  unit = 'ms',
): BenchRow {
  return {
    part: 'stopwatch',
    what,
    value,
    unit,
    baseline,
    ratio: value / baseline.value,
    target: `< ${target} ${unit}`,
    met: value < target,
    note,
  };
}
