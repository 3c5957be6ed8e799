/**
 * Tier 5 — spatial memory (SPEC §5 "Spatial"): where objects (and people) were last seen.
 *
 * - `locate` to the object's current container re-confirms it (last_confirmed_ts = the sighting
 *   time, confidence = max(stored, given)); to another container it archives the current row
 *   (`active = 0`) and inserts the new one. Containers are entities too (`container_id`).
 * - `find` answers with the confidence decayed ON READ,
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
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { invalid, notFound } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import { toEpoch } from '../../lib/schema.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { ageText } from '../memory/decay.js';
import type { WordNet } from '../../ai/wordnet.js';
import { analyze } from '../../ai/text.js';
import { QUESTION_STEMS, rankNames } from './object-match.js';
import type {
  FindInput,
  FindResult,
  LocateInput,
  LocationHistoryInput,
  SeenAtInput,
  Whereabouts,
} from './spatial.schemas.js';

/** Decayed confidence never reads below this: an old sighting is still the best lead there is. */
export const CONFIDENCE_FLOOR = 0.05;
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
}

/**
 * The object a question asks about, as a phrase to say back: "where did I leave my glasses?" →
 * "your glasses", "wheres the umbrella" → "the umbrella", "where are Brian's keys" → "Brian's keys".
 */
export function objectPhrase(question: string): { phrase: string; plural: boolean } {
  const words = analyze(question).filter((t) => !QUESTION_STEMS.has(t.stem));
  const owner = /([\p{L}\p{N}]+)['’]s\b/u.exec(question)?.[1];
  const mine = /\b(my|our|mine)\b/i.test(question);
  const object = words.map((w) => w.word).filter((w) => !owner || w !== owner.toLowerCase());
  if (!object.length) return { phrase: 'that', plural: false };
  const last = object[object.length - 1];
  const plural = /[^s]s$/.test(last) || /(sses|xes|ches|shes)$/.test(last);
  const det = owner ? `${owner}'s` : mine ? 'your' : 'the';
  return { phrase: `${det} ${object.join(' ')}`, plural };
}

interface LocationRow {
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

export type LocateAction = 'added' | 'confirmed' | 'moved' | 'stale';

const SELECT = 'SELECT l.*, e.name AS entity_name FROM locations l JOIN entities e ON e.id = l.entity_id';
const round = (x: number) => Math.round(x * 10_000) / 10_000;

export function createSpatialService(deps: SpatialDeps) {
  const { db, clock, entities, audit, config, wordnet } = deps;
  const current = db.prepare(`${SELECT} WHERE l.entity_id = ? AND l.active = 1`);
  const allActive = db.prepare(`${SELECT} WHERE l.active = 1`);
  const located = db.prepare('SELECT DISTINCT e.id, e.name FROM locations l JOIN entities e ON e.id = l.entity_id');
  const history = db.prepare(`${SELECT} WHERE l.entity_id = ? ORDER BY l.created DESC, l.id DESC LIMIT ?`);
  const insert = db.prepare(
    `INSERT INTO locations (entity_id, container_id, container_name, confidence, last_confirmed_ts, active, source, note, created)
     VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)`,
  );
  const archive = db.prepare('UPDATE locations SET active = 0 WHERE id = ?');
  const confirm = db.prepare(
    'UPDATE locations SET last_confirmed_ts = ?, confidence = ?, source = coalesce(?, source), note = coalesce(?, note) WHERE id = ?',
  );

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

  /** The sighting time: `ts` when given (never in the future), else now. */
  const sightedAt = (ts: LocateInput['ts'], now: number) => Math.min(toEpoch(ts) ?? now, now);

  function locate(input: LocateInput, actor: Actor = 'system') {
    if (nameKey(input.entity_name) === nameKey(input.container_name)) {
      throw invalid('container_name: must differ from entity_name (nothing is inside itself)');
    }
    const now = clock.now();
    const at = sightedAt(input.ts, now);
    const out = db.transaction(() => {
      const obj = entities.ensure(input.entity_name, input.entity_type);
      const cont = entities.ensure(input.container_name, input.container_type);
      const cur = current.get(obj.id) as LocationRow | undefined;
      const base = {
        entity_name: obj.name,
        container_name: cont.name,
        previous_container: cur?.container_name ?? null,
      };
      if (cur && at < cur.last_confirmed_ts)
        return { ...base, id: cur.id, action: 'stale' as LocateAction, container_name: cur.container_name };
      if (cur && (cur.container_id === cont.id || nameKey(cur.container_name) === nameKey(cont.name))) {
        const confidence = Math.max(cur.confidence, input.confidence);
        confirm.run(at, confidence, input.source ?? null, input.note ?? null, cur.id);
        audit.record(
          actor,
          'location.confirm',
          cur.id,
          { confidence: cur.confidence, last_confirmed_ts: cur.last_confirmed_ts },
          { confidence, last_confirmed_ts: at },
        );
        return { ...base, id: cur.id, action: 'confirmed' as LocateAction };
      }
      if (cur) archive.run(cur.id);
      const { lastInsertRowid } = insert.run(
        obj.id,
        cont.id,
        cont.name,
        input.confidence,
        at,
        input.source ?? null,
        input.note ?? null,
        now,
      );
      const id = Number(lastInsertRowid);
      audit.record(
        actor,
        cur ? 'location.move' : 'location.add',
        id,
        cur ? { id: cur.id, container_name: cur.container_name } : null,
        {
          entity_name: obj.name,
          container_name: cont.name,
          confidence: input.confidence,
          last_confirmed_ts: at,
          source: input.source ?? null,
        },
      );
      return { ...base, id, action: (cur ? 'moved' : 'added') as LocateAction };
    })();
    const sentence: Record<LocateAction, string> = {
      added: `Noted: ${out.entity_name} in ${out.container_name}.`,
      confirmed: `Confirmed: ${out.entity_name} still in ${out.container_name}.`,
      moved: `Noted: ${out.entity_name} moved from ${out.previous_container} to ${out.container_name}.`,
      stale: `Kept the newer sighting: ${out.entity_name} in ${out.container_name} (this one is older).`,
    };
    return { result: sentence[out.action], ...out };
  }

  return {
    locate,

    /** The active place of an object by exact name, decayed to now (e.g. the MQTT bridge's retained-replay check). */
    current(entityName: string): Whereabouts | undefined {
      const e = entities.find(entityName);
      const r = e && (current.get(e.id) as LocationRow | undefined);
      return r ? whereabouts(r, clock.now()) : undefined;
    },

    /** Where is it? Loose name matching; ambiguity returns candidates instead of a guess. */
    find(input: FindInput): FindResult {
      const now = clock.now();
      const rows = allActive.all() as LocationRow[];
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
      if (best) {
        const w = whereabouts(best, now);
        const doubt = w.confidence < 0.3 ? ' — that was a while ago, it may have moved' : '';
        return {
          result: `${w.entity_name}: ${w.container_name}, last confirmed ${w.age_text} (confidence ${w.confidence.toFixed(2)})${doubt}.`,
          found: true,
          ...w,
          candidates,
        };
      }
      const result = candidates.length
        ? `Which one do you mean? ${candidates.map((c) => `${c.entity_name} (${c.container_name}, ${c.age_text})`).join('; ')}.`
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
      let cur = obj && (current.get(obj.id) as LocationRow | undefined);
      if (!cur) {
        // No place known under this exact name: the one located object it means, if exactly one.
        const { best } = rankNames(input.entity_name, allActive.all() as LocationRow[], (r) => r.entity_name, wordnet);
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
        const c = current.get(entities.get(r.entity_name).id) as LocationRow;
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
      db.transaction(() => {
        confirm.run(at, confidence, input.source ?? null, null, cur.id);
        audit.record(
          actor,
          'location.seen',
          cur.id,
          { confidence: cur.confidence, last_confirmed_ts: cur.last_confirmed_ts },
          { confidence, last_confirmed_ts: at },
        );
      })();
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
        const { ranked, best } = rankNames(
          input.entity_name,
          located.all() as { id: number; name: string }[],
          (e) => e.name,
          wordnet,
        );
        if (!best) {
          const also = ranked.length ? ` Did you mean: ${ranked.map((r) => r.item.name).join(', ')}?` : '';
          throw notFound(`entity_name: no location history for "${input.entity_name}".${also}`);
        }
        entity = entities.byId(best.item.id)!;
      }
      const rows = history.all(entity.id, input.limit) as LocationRow[];
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
}
export type SpatialService = ReturnType<typeof createSpatialService>;
