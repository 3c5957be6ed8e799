/**
 * The `[ask]` section (SPEC §5 Ask): the parts of the day that "this morning", "yesterday evening",
 * "last night" and "tonight" mean, as local hours "start-end" (end exclusive; the night's end is the
 * next morning). Parsed to `[start, end]` pairs, so `config.ask` is the ask tier's `DayParts`.
 */
import { z } from 'zod';

const HOURS = /^(\d{1,2})\s*-\s*(\d{1,2})$/;

/** "06-12" or [6, 12] → [6, 12]; hours 0–24, `wraps` for the night (its end is the next day's). */
function dayPart(fallback: string, wraps: boolean) {
  return z
    .union([z.string(), z.tuple([z.number().int(), z.number().int()])])
    .default(fallback)
    .transform((v, ctx): [number, number] => {
      const m = typeof v === 'string' ? HOURS.exec(v.trim()) : null;
      const pair: [number, number] = Array.isArray(v) ? v : m ? [Number(m[1]), Number(m[2])] : [-1, -1];
      const [s, e] = pair;
      const ok = s >= 0 && s <= 24 && e >= 0 && e <= 24 && (wraps ? s !== e : s < e);
      if (!ok)
        ctx.addIssue({
          code: 'custom',
          message: `expected local hours "start-end"${wraps ? ' (the end is the next morning)' : ' with start before end'}, e.g. "${fallback}"`,
        });
      return pair;
    });
}

export const AskConfigSchema = z
  .object({
    morning: dayPart('06-12', false),
    afternoon: dayPart('12-18', false),
    evening: dayPart('18-22', false),
    night: dayPart('22-06', true),
  })
  .strict()
  .prefault({});
