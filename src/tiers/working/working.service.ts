/**
 * Tier 1.75 — working memory: short-lived task scratchpads of key/value slots, optionally expiring,
 * optionally promoted into one long-term memory on close (SPEC §3, §5 "Working memory").
 *
 * Expiry has two halves that always agree: every read computes the status from `ttl_ts` (a task
 * past its TTL is reported `expired` even before the sweep ran, and refuses writes), and
 * `expireDue()`, run by the scheduler, persists it. Slots of ended tasks stay until `prune`.
 */
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { HubError, notFound } from '../../lib/errors.js';
import { plural } from '../../lib/plural.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { RememberInput } from '../memory/memory.schemas.js';
import { createWorkingRepo, type RawSlot, type SlotView, type TaskView } from './working.repo.js';
import {
  flag,
  type WmCloseInput,
  type WmGetInput,
  type WmListInput,
  type WmOpenInput,
  type WmSetInput,
  type WmUnsetInput,
} from './working.schemas.js';

export interface WorkingDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  /** Long-term memory write used by promote-on-close: `services.memory.remember`. */
  remember: (input: RememberInput, actor: Actor) => Promise<{ id: number; action?: string }>;
}

/** Trust of a promoted scratchpad: 2 `inferred` (SPEC §5 trust tiers). */
export const PROMOTION_TRUST = 2;
/** Entity type given to the entity named after a task that had none, so promotions have an owner. */
export const TASK_ENTITY_TYPE = 'task';

export type { SlotView, TaskView } from './working.repo.js';

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
const iso = (ts: number) => new Date(ts * 1000).toISOString().replace('.000Z', 'Z');

/** The promoted fact: "Task 'plan Maya's birthday': guests = 12; venue = the park". Fits RememberInput's 4000 chars. */
export function promotionText(taskName: string, slots: SlotView[]): string {
  return clip(
    `Task '${taskName}': ${slots.map((s) => `${s.key} = ${clip(show(s.value).replace(/\s+/g, ' '), 300)}`).join('; ')}`,
    3900,
  );
}

export function createWorkingService(deps: WorkingDeps) {
  const { db, clock, entities, audit } = deps;
  const repo = createWorkingRepo(db);

  const parseSlot = (r: RawSlot): SlotView => ({ ...r, value: JSON.parse(r.value) });
  const describe = (t: TaskView) => `task ${t.task_id} ('${t.task_name}'${t.entity_name ? `, ${t.entity_name}` : ''})`;

  function mustGet(id: number): TaskView {
    const t = repo.task(id, clock.now());
    if (!t) throw notFound(`task_id: no working-memory task with id ${id}`);
    return t;
  }
  function ended(t: TaskView): HubError {
    const why = t.status === 'expired' ? `expired at ${iso(t.closed_at ?? t.ttl_ts ?? 0)}` : 'closed';
    return new HubError('conflict', `task_id: ${describe(t)} is ${why}; open a new task with wm_open`);
  }
  /** Where a slot write starts: the task, which must be open (an ended one refuses, 409), and the slot as stored. */
  function openSlot(input: { task_id: number; key: string }): { t: TaskView; before: RawSlot | undefined } {
    const t = mustGet(input.task_id);
    if (t.status !== 'open') throw ended(t);
    return { t, before: repo.slot(t.task_id, input.key) };
  }

  return {
    /** The tier's repository, for its import writer (services.ts), as episodic's; doors never reach a repo (lint-deps). */
    repo,
    /** Opens a scratchpad; with `ttl_seconds` it expires that long after now. */
    wmOpen(input: WmOpenInput, actor: Actor = 'system') {
      return db.transaction(() => {
        const entity =
          input.entity_name === undefined ? null : entities.ensure(input.entity_name, input.entity_type ?? 'person');
        const now = clock.now();
        const ttl = input.ttl_seconds === undefined ? null : now + input.ttl_seconds;
        const id = repo.insertTask(input.task_name, entity?.id ?? null, ttl, now);
        audit.record(actor, 'wm.open', id, null, { name: input.task_name, entity_id: entity?.id ?? null, ttl_ts: ttl });
        const until = ttl === null ? '' : `, expires ${iso(ttl)}`;
        return {
          result: `Opened task ${id} '${input.task_name}'${entity ? ` for ${entity.name}` : ''}${until}.`,
          task_id: id,
          entity_name: entity?.name ?? null,
          ttl_ts: ttl,
          created: now,
        };
      })();
    },

    /** Sets one slot (insert or overwrite); closed or expired tasks refuse (409). */
    wmSet(input: WmSetInput, actor: Actor = 'system') {
      return db.transaction(() => {
        const { t, before } = openSlot(input);
        const now = clock.now();
        repo.setSlot(t.task_id, input.key, JSON.stringify(input.value), now);
        audit.record(actor, 'wm.set', t.task_id, before ? { key: input.key, value: JSON.parse(before.value) } : null, {
          key: input.key,
          value: input.value,
        });
        return {
          result: `Set ${input.key} = ${clip(show(input.value), 200)} in ${describe(t)}.`,
          task_id: t.task_id,
          key: input.key,
          value: input.value,
          created: !before,
          updated: now,
        };
      })();
    },

    /**
     * Removes one slot of an open task ("take milk off the list"). A key the task does not hold is no
     * error: nothing changes and `removed` is false, so saying it twice is harmless.
     */
    wmUnset(input: WmUnsetInput, actor: Actor = 'system') {
      return db.transaction(() => {
        const { t, before } = openSlot(input);
        if (!before)
          return {
            result: `No slot "${input.key}" in ${describe(t)}; nothing removed.`,
            task_id: t.task_id,
            key: input.key,
            removed: false,
          };
        const value = JSON.parse(before.value) as unknown;
        repo.deleteSlot(t.task_id, input.key);
        audit.record(actor, 'wm.unset', t.task_id, { key: input.key, value }, null);
        return {
          result: `Removed ${input.key} from ${describe(t)}.`,
          task_id: t.task_id,
          key: input.key,
          removed: true,
          value,
        };
      })();
    },

    /** One slot by key (404 if absent), or every slot with the task's metadata. Works on ended tasks too. */
    wmGet(input: WmGetInput) {
      const task = mustGet(input.task_id);
      if (input.key !== undefined) {
        const raw = repo.slot(task.task_id, input.key);
        if (!raw) throw notFound(`key: no slot "${input.key}" in ${describe(task)}`);
        const slot = parseSlot(raw);
        return { result: `${slot.key} = ${show(slot.value)}`, task, slot };
      }
      const slots = repo.slots(task.task_id).map(parseSlot);
      const body = slots.length ? slots.map((s) => `${s.key} = ${show(s.value)}`).join('; ') : 'no slots yet';
      return { result: `Task ${task.task_id} '${task.task_name}' (${task.status}): ${body}`, task, slots };
    },

    /** Tasks by status (`open` by default; `all` for every task) and entity, newest first. */
    wmList(input: WmListInput) {
      let entityId: number | null = null;
      if (input.entity_name !== undefined) {
        const e = entities.find(input.entity_name);
        if (!e)
          return { result: `No tasks for "${input.entity_name}": no entity by that name.`, tasks: [] as TaskView[] };
        entityId = e.id;
      }
      const tasks = repo.list(input.status, entityId, input.limit, clock.now());
      const result = tasks.length
        ? tasks
            .map(
              (t) =>
                `- ${t.task_id} '${t.task_name}' (${t.status}${t.entity_name ? `, ${t.entity_name}` : ''}, ${plural(t.slot_count, 'slot')})`,
            )
            .join('\n')
        : `No ${input.status === 'all' ? '' : `${input.status} `}tasks.`;
      return { result, tasks };
    },

    /**
     * Closes a task (an expired one too: its slots are kept, and closing is how an assistant says it
     * is done with them). With `promote`, first writes ONE long-term memory summarising the slots —
     * trust 2 (`inferred`), category `general`, source `working_memory` — about the task's entity, or,
     * when the task has none, about an entity named after the task (type `task`). Promoting first
     * means a failed write leaves the task open to retry; remember's duplicate check makes a retry
     * reinforce rather than copy.
     */
    async wmClose(input: WmCloseInput, actor: Actor = 'system') {
      const t = mustGet(input.task_id);
      if (t.status === 'closed') throw ended(t);
      const warnings: string[] = [];
      let promoted: { id: number; action?: string } | null = null;
      if (flag(input.promote)) {
        const slots = repo.slots(t.task_id).map(parseSlot);
        if (!slots.length) warnings.push('nothing to promote: the task has no slots');
        else {
          const owner = t.entity_name ?? t.task_name.replace(/\s+/g, ' ');
          promoted = await deps.remember(
            RememberInput.parse({
              entity_name: owner,
              entity_type: t.entity_name ? undefined : TASK_ENTITY_TYPE,
              fact: promotionText(t.task_name, slots),
              category: 'general',
              source: 'working_memory',
              source_trust: PROMOTION_TRUST,
            }),
            actor,
          );
        }
      }
      const now = clock.now();
      db.transaction(() => {
        if (!repo.close(t.task_id, now, promoted?.id ?? null)) throw ended(mustGet(t.task_id));
        audit.record(
          actor,
          'wm.close',
          t.task_id,
          { status: t.status },
          { status: 'closed', closed_at: now, promoted_memory_id: promoted?.id ?? null },
        );
      })();
      const what = promoted ? ` Saved its ${plural(t.slot_count, 'slot')} as memory ${promoted.id}.` : '';
      return {
        result: `Closed ${describe(t)}.${what}`,
        task_id: t.task_id,
        closed_at: now,
        promoted_memory_id: promoted?.id ?? null,
        promotion_action: promoted?.action ?? null,
        warnings,
      };
    },

    /** Persists expiry of open tasks past their TTL (scheduler job `wm_expiry`). Idempotent. */
    expireDue(actor: Actor = 'scheduler') {
      return db.transaction(() => {
        const rows = repo.expireDue(clock.now());
        for (const r of rows)
          audit.record(actor, 'wm.expire', r.id, { status: 'open' }, { status: 'expired', closed_at: r.ttl_ts });
        return {
          result: rows.length ? `Expired ${rows.length} working-memory tasks.` : 'No tasks were due to expire.',
          expired: rows.length,
          task_ids: rows.map((r) => r.id),
        };
      })();
    },

    /** Deletes closed/expired tasks (and their slots) that ended more than `olderThanDays` ago. */
    prune(olderThanDays = 30, actor: Actor = 'scheduler') {
      return db.transaction(() => {
        const cutoff = clock.now() - olderThanDays * 86_400;
        const ids = repo.prune(cutoff);
        if (ids.length)
          audit.record(actor, 'wm.prune', null, null, { deleted: ids.length, task_ids: ids, cutoff_ts: cutoff });
        return { result: `Deleted ${ids.length} ended working-memory tasks.`, deleted: ids.length };
      })();
    },
  };
}
export type WorkingService = ReturnType<typeof createWorkingService>;
