/**
 * A stored sighting (migration 005: `locations` joined with its object's entity; its SQL is
 * spatial.repo.ts) and how it reads: the confidence decayed ON READ (SPEC §5), never written back,
 *   effective = max(CONFIDENCE_FLOOR, confidence × 2^(−hours_since_confirmed / half_life_hours)),
 * and the `Whereabouts` the doors get.
 */
import { ageText } from '../memory/decay.js';
import type { Whereabouts } from './spatial.schemas.js';

/** Decayed confidence never reads below this: an old sighting is still the best lead there is. */
export const CONFIDENCE_FLOOR = 0.05;

export interface LocationRow {
  id: number;
  entity_id: number;
  entity_name: string;
  container_id: number | null;
  container_name: string;
  confidence: number;
  last_confirmed_ts: number;
  active: number;
  source: string | null;
  note: string | null;
  created: number;
}

export const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** Reading sightings with the configured half-life (`memory.location_decay_halflife_hours`). */
export function locationReader(config: { location_decay_halflife_hours: number }) {
  /** SPEC §5 decay, computed for `now`; never stored. */
  function effective(r: LocationRow, now: number): number {
    const hours = Math.max(0, now - r.last_confirmed_ts) / 3600;
    return Math.max(CONFIDENCE_FLOOR, r.confidence * 2 ** (-hours / config.location_decay_halflife_hours));
  }

  function whereabouts(r: LocationRow, now: number): Whereabouts {
    const age = Math.max(0, now - r.last_confirmed_ts);
    return {
      entity_name: r.entity_name,
      container_name: r.container_name,
      confidence: round(effective(r, now)),
      last_confirmed_ts: r.last_confirmed_ts,
      age_seconds: Math.round(age),
      age_text: ageText(age),
    };
  }

  return { effective, whereabouts };
}
