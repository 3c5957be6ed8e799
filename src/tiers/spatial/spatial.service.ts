/**
 * Tier 5 — spatial memory (SPEC §5 "Spatial"): where objects (and people) were last seen.
 *
 * - `locate` (locate.ts) to the object's current container re-confirms it (last_confirmed_ts = the
 *   sighting time, confidence = max(stored, given)); to another container it archives the current
 *   row (`active = 0`) and inserts the new one. Containers are entities too (`container_id`).
 * - `find` answers with the confidence decayed ON READ (locations.ts),
 *     effective = max(0.05, confidence × 2^(−hours_since_confirmed / half_life_hours)),
 *   half-life from config `memory.location_decay_halflife_hours` (default 24). Nothing is written
 *   back, so asking twice answers the same — the seed overwrote the stored value each hour with a
 *   factor measured from the original time, compounding the decay (SPEC §6 "Known defects").
 * - `seen_at` re-confirms: last_confirmed_ts = now, stored confidence + 0.10, capped at 1; with a
 *   different container it is a `locate`.
 * - A sighting older than the stored one (`ts`, e.g. a replayed MQTT message) changes nothing.
 *
 * `locate` takes the object's exact name; reads (`find`, `location_history`) match loosely
 * (object-match.ts) because they come from questions — by spelling, then by meaning through WordNet
 * ("the hoover" → vacuum cleaner, "my mobile" → phone). `seen_at` takes the exact name, and when no
 * object by that name has a place, the one object the name means ("I saw my mobile on the desk").
 */
import type { Embedder } from '../../ai/types.js';
import type { WordNet } from '../../ai/wordnet.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { ageText } from '../memory/decay.js';
import { createEncoderMatch } from './encoder-match.js';
import { createLocate, reconfirm, sightedAt } from './locate.js';
import { type LocationRow, locationReader, round } from './locations.js';
import { objectPhrase, rankNames } from './object-match.js';
import { createSpatialRepo } from './spatial.repo.js';
import type { FindInput, FindResult, LocationHistoryInput, SeenAtInput, Whereabouts } from './spatial.schemas.js';

export { CONFIDENCE_FLOOR } from './locations.js';
export type { LocateAction } from './locate.js';
export { objectPhrase } from './object-match.js';

/** What a `seen_at` confirmation adds to the stored confidence (SPEC §5). */
export const SEEN_BOOST = 0.1;

export interface SpatialDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  config: { location_decay_halflife_hours: number };
  /** Matches object names by meaning when none is spelled like the question (optional). */
  wordnet?: WordNet;
  /** The encoder: colloquial names when neither spelling nor WordNet matches (`findAsked`; encoder-match.ts). */
  embedder?: Embedder;
}

export function createSpatialService(deps: SpatialDeps) {
  const { db, clock, entities, audit, config, wordnet } = deps;
  const repo = createSpatialRepo(db);
  const { effective, whereabouts } = locationReader(config);
  const locate = createLocate({ ...deps, repo });
  const byEncoder = createEncoderMatch(deps.embedder, wordnet);

  function foundAt(best: LocationRow, now: number, candidates: FindResult['candidates']): FindResult {
    const w = whereabouts(best, now);
    const doubt = w.confidence < 0.3 ? ' — that was a while ago, it may have moved' : '';
    return {
      result: `${w.entity_name}: ${w.container_name}, last confirmed ${w.age_text} (confidence ${w.confidence.toFixed(2)})${doubt}.`,
      found: true,
      ...w,
      candidates,
    };
  }
  const whichOne = (candidates: FindResult['candidates']) =>
    `Which one do you mean? ${candidates.map((c) => `${c.entity_name} (${c.container_name}, ${c.age_text})`).join('; ')}.`;

  const service = {
    /** The tier's repository, for its import writer (services.ts), as episodic's; doors never reach a repo (lint-deps). */
    repo,
    locate,

    /** The active place of an object by exact name, decayed to now (e.g. the MQTT bridge's retained-replay check). */
    current(entityName: string): Whereabouts | undefined {
      const e = entities.find(entityName);
      const r = e && repo.current(e.id);
      return r ? whereabouts(r, clock.now()) : undefined;
    },

    /**
     * `find`, then — when neither spelling nor WordNet names a located object — the encoder over the
     * located objects' names ("the clicker for the telly" → TV remote; encoder-match.ts). The ask door
     * and POST /find use it; the sync `find` serves callers that cannot wait for a model.
     */
    async findAsked(input: FindInput): Promise<FindResult> {
      const plain = service.find(input);
      if (plain.found || plain.candidates.length) return plain;
      const now = clock.now();
      const rows = repo.allActive();
      const { ranked, best } = await byEncoder((input.entity_name ?? input.query)!, rows, (r) => r.entity_name);
      if (!ranked.length) return plain;
      const candidates = ranked.map((r) => ({
        ...whereabouts(r.item, now),
        score: round(r.score),
        matched_by: r.by,
      }));
      return best ? foundAt(best.item, now, candidates) : { ...plain, result: whichOne(candidates), candidates };
    },

    /** Where is it? Loose name matching; ambiguity returns candidates instead of a guess. */
    find(input: FindInput): FindResult {
      const now = clock.now();
      const rows = repo.allActive();
      const asked = (input.entity_name ?? input.query)!;
      const { ranked, best: loose } = rankNames(asked, rows, (r) => r.entity_name, wordnet);
      // An exact name is the entity it names, by its own name or an alias (entities.repo.ts).
      const named = input.entity_name === undefined ? undefined : entities.find(input.entity_name);
      const exact = named && rows.find((r) => r.entity_id === named.id);
      const best = exact ?? loose?.item;
      const candidates = ranked.map((r) => ({
        ...whereabouts(r.item, now),
        score: round(r.score),
        matched_by: r.by ?? 'spelling',
      }));
      if (best) return foundAt(best, now, candidates);
      const result = candidates.length
        ? whichOne(candidates)
        : (() => {
            // Said back to the person (often aloud), so a sentence, not their question in quotes.
            const { phrase, plural } = objectPhrase(asked);
            return `I don't know where ${phrase} ${plural ? 'are' : 'is'}.`;
          })();
      return {
        result,
        found: false,
        entity_name: null,
        container_name: null,
        confidence: null,
        last_confirmed_ts: null,
        age_seconds: null,
        age_text: null,
        candidates,
      };
    },

    /** Confirms the known place (+0.10, capped at 1), or moves it when seen somewhere else. */
    seenAt(input: SeenAtInput, actor: Actor = 'system') {
      let obj = entities.find(input.entity_name);
      let cur = obj && repo.current(obj.id);
      if (!cur) {
        // No place known under this exact name: the one located object it means, if exactly one.
        const { best } = rankNames(input.entity_name, repo.allActive(), (r) => r.entity_name, wordnet);
        if (best)
          (cur = best.item),
            (obj = entities.byId(best.item.entity_id)),
            (input = { ...input, entity_name: best.item.entity_name });
      }
      const move =
        input.container_name !== undefined && (!cur || nameKey(cur.container_name) !== nameKey(input.container_name));
      if (move) {
        const r = locate(
          {
            entity_name: input.entity_name,
            container_name: input.container_name!,
            entity_type: 'object',
            confidence: 1,
            source: input.source,
            ts: input.ts,
          },
          actor,
        );
        const c = repo.current(entities.get(r.entity_name).id)!;
        return { ...r, confidence: round(effective(c, clock.now())) };
      }
      if (!cur)
        throw notFound(
          `entity_name: no known location for "${input.entity_name}"; give container_name to record where it was seen`,
        );
      const now = clock.now();
      const at = sightedAt(input.ts, now);
      if (at < cur.last_confirmed_ts) {
        return {
          result: `Kept the newer sighting of ${cur.entity_name} in ${cur.container_name}.`,
          id: cur.id,
          entity_name: cur.entity_name,
          container_name: cur.container_name,
          action: 'stale' as const,
          confidence: round(effective(cur, now)),
        };
      }
      const confidence = Math.min(1, cur.confidence + SEEN_BOOST);
      db.transaction(() =>
        reconfirm({ repo, audit }, actor, 'location.seen', cur, {
          at,
          confidence,
          source: input.source ?? null,
          note: null,
        }),
      )();
      const c = round(effective({ ...cur, confidence, last_confirmed_ts: at }, now));
      return {
        result: `Confirmed: ${cur.entity_name} in ${cur.container_name} (confidence ${c.toFixed(2)}).`,
        id: cur.id,
        entity_name: cur.entity_name,
        container_name: cur.container_name,
        action: 'confirmed' as const,
        confidence: c,
      };
    },

    /** Every sighting of one object, newest first; the active one carries its decayed confidence. */
    history(input: LocationHistoryInput) {
      const now = clock.now();
      let entity = entities.find(input.entity_name);
      if (!entity) {
        const { ranked, best } = rankNames(input.entity_name, repo.located(), (e) => e.name, wordnet);
        if (!best) {
          const also = ranked.length ? ` Did you mean: ${ranked.map((r) => r.item.name).join(', ')}?` : '';
          throw notFound(`entity_name: no location history for "${input.entity_name}".${also}`);
        }
        entity = entities.byId(best.item.id)!;
      }
      const rows = repo.history(entity.id, input.limit);
      const locations = rows.map((r) => ({
        id: r.id,
        container_name: r.container_name,
        confidence: r.confidence,
        effective_confidence: r.active ? round(effective(r, now)) : null,
        last_confirmed_ts: r.last_confirmed_ts,
        active: r.active === 1,
        source: r.source,
        note: r.note,
        created: r.created,
      }));
      const result = locations.length
        ? locations
            .map((l) => `- ${ageText(now - l.created)}: ${l.container_name}${l.active ? ' (current)' : ''}`)
            .join('\n')
        : `No locations recorded for ${entity.name}.`;
      return { result, entity_name: entity.name, locations };
    },
  };
  return service;
}
export type SpatialService = ReturnType<typeof createSpatialService>;
