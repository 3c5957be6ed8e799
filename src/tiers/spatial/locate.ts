/**
 * `locate` (SPEC §5 "Spatial"), the one write of a place: to the object's current container it
 * re-confirms the sighting (last_confirmed_ts = the sighting time, confidence = max(stored, given));
 * to another container it archives the current row (`active = 0`) and inserts the new one;
 * a sighting older than the stored one (`ts`, e.g. a replayed MQTT message) changes nothing.
 * Object and container are entities, made on first mention; every change is audited.
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { invalid } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import { toEpoch } from '../../lib/schema.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { LocationRow } from './locations.js';
import type { SpatialRepo } from './spatial.repo.js';
import type { LocateInput } from './spatial.schemas.js';

export type LocateAction = 'added' | 'confirmed' | 'moved' | 'stale';

/** The sighting time: `ts` when given (never in the future), else now. */
export const sightedAt = (ts: LocateInput['ts'], now: number) => Math.min(toEpoch(ts) ?? now, now);

/**
 * Re-confirms the object's current sighting `cur` as seen at `at` with `confidence` (a null source
 * or note keeps the stored one), audited as `action` with the confidence and time before and after.
 * The caller owns the transaction.
 */
export function reconfirm(
  { repo, audit }: { repo: SpatialRepo; audit: AuditRepo },
  actor: Actor,
  action: 'location.confirm' | 'location.seen',
  cur: LocationRow,
  seen: { at: number; confidence: number; source: string | null; note: string | null },
): void {
  repo.confirm(cur.id, seen.at, seen.confidence, seen.source, seen.note);
  audit.record(
    actor,
    action,
    cur.id,
    { confidence: cur.confidence, last_confirmed_ts: cur.last_confirmed_ts },
    { confidence: seen.confidence, last_confirmed_ts: seen.at },
  );
}

export function createLocate(deps: {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  repo: SpatialRepo;
}) {
  const { db, clock, entities, audit, repo } = deps;

  function locate(input: LocateInput, actor: Actor = 'system') {
    if (nameKey(input.entity_name) === nameKey(input.container_name)) {
      throw invalid('container_name: must differ from entity_name (nothing is inside itself)');
    }
    const now = clock.now();
    const at = sightedAt(input.ts, now);
    const out = db.transaction(() => {
      const obj = entities.ensure(input.entity_name, input.entity_type);
      const cont = entities.ensure(input.container_name, input.container_type);
      const cur = repo.current(obj.id);
      const base = {
        entity_name: obj.name,
        container_name: cont.name,
        previous_container: cur?.container_name ?? null,
      };
      if (cur && at < cur.last_confirmed_ts)
        return { ...base, id: cur.id, action: 'stale' as LocateAction, container_name: cur.container_name };
      if (cur && (cur.container_id === cont.id || nameKey(cur.container_name) === nameKey(cont.name))) {
        const confidence = Math.max(cur.confidence, input.confidence);
        reconfirm(deps, actor, 'location.confirm', cur, {
          at,
          confidence,
          source: input.source ?? null,
          note: input.note ?? null,
        });
        return { ...base, id: cur.id, action: 'confirmed' as LocateAction };
      }
      if (cur) repo.archive(cur.id);
      const id = repo.insert({
        entity_id: obj.id,
        container_id: cont.id,
        container_name: cont.name,
        confidence: input.confidence,
        last_confirmed_ts: at,
        source: input.source ?? null,
        note: input.note ?? null,
        created: now,
      });
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

  return locate;
}
