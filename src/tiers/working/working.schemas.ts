/** Tier 1.75 operations (working memory): one zod object each, shared by HTTP and MCP. */
import { z } from 'zod';
import { EntityName, EntityType, Text, TOO_DEEP, withinDepth, RowId } from '../../lib/schema.js';
import { int, ts, warnings } from '../../lib/output.js';

export const TASK_STATUSES = ['open', 'closed', 'expired'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A slot value as stored: any JSON, at most this many characters once serialised. */
export const MAX_VALUE_CHARS = 16_000;

const TaskId = z.number().int().positive().describe('the id wm_open returned');
// GET /wm/:task_id and GET /wm/list carry numbers as text.
const TaskIdParam = RowId.describe('the id wm_open returned');
const SlotKey = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/**
 * A boolean that also accepts the strings Home Assistant templates and query strings produce.
 * No `.transform`: the schema must render to JSON Schema; services convert with `flag()`.
 */
export const Flag = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]);
export type Flag = z.infer<typeof Flag>;
export const flag = (v: Flag | undefined): boolean => v === true || v === 'true' || v === '1';

export const WmOpenInput = z.strictObject({
  task_name: Text(200).describe('what the scratchpad is for, e.g. "plan Maya\'s birthday"'),
  entity_name: EntityName.optional().describe('who or what the task is about, e.g. "Maya"'),
  entity_type: EntityType.optional().describe('type used when the entity is new (default person)'),
  ttl_seconds: z
    .number()
    .int()
    .positive()
    .max(366 * 86_400)
    .optional()
    .describe('the task expires this many seconds after opening; omit to keep it until closed'),
});
export type WmOpenInput = z.infer<typeof WmOpenInput>;

export const WmSetInput = z.strictObject({
  task_id: TaskId,
  key: SlotKey.describe('slot name, e.g. "guests"'),
  // z.unknown renders as `{}` (any JSON); z.json() would emit a recursive $defs many clients choke on.
  value: z
    .unknown()
    .refine((v) => v !== undefined, 'required')
    .refine((v) => withinDepth(v), { message: TOO_DEEP, abort: true })
    .refine((v) => {
      let s: string | undefined;
      try {
        s = JSON.stringify(v);
      } catch {
        return false; // nested too deeply to serialise
      }
      return s !== undefined && s.length <= MAX_VALUE_CHARS;
    }, `must be JSON of at most ${MAX_VALUE_CHARS} characters`)
    .describe('any JSON value: text, number, boolean, list or object'),
});
export type WmSetInput = z.infer<typeof WmSetInput>;

export const WmGetInput = z.strictObject({
  task_id: TaskIdParam,
  key: SlotKey.optional().describe('omit to read every slot with the task metadata'),
});
export type WmGetInput = z.infer<typeof WmGetInput>;

export const WmUnsetInput = z.strictObject({
  task_id: TaskId,
  key: SlotKey.describe('the slot to remove, e.g. "milk"'),
});
export type WmUnsetInput = z.infer<typeof WmUnsetInput>;

export const WmListInput = z.strictObject({
  status: z
    .enum([...TASK_STATUSES, 'all'])
    .default('open')
    .describe('open (default), closed, expired or all'),
  entity_name: EntityName.optional().describe('only tasks about this entity'),
  limit: z.coerce.number().int().min(1).max(1000).default(100).describe('at most this many tasks (default 100)'),
});
export type WmListInput = z.infer<typeof WmListInput>;

export const WmCloseInput = z.strictObject({
  task_id: TaskId,
  promote: Flag.default(false).describe(
    'true: save the slots as one long-term memory (trust 2, inferred) before closing',
  ),
});
export type WmCloseInput = z.infer<typeof WmCloseInput>;

// What each operation answers besides `ok` and `result` (describe-only; /docs shows it beside the route).
const Task = z.looseObject({
  task_id: int,
  task_name: z.string(),
  entity_name: z.string().nullable(),
  status: z.string(),
  ttl_ts: ts.nullable(),
  created: ts,
  closed_at: ts.nullable(),
  slot_count: int,
});
const Slots = z.array(z.looseObject({ key: z.string(), value: z.unknown(), created: ts, updated: ts }));
export const WmOpenOutput = z.looseObject({
  task_id: int,
  entity_name: z.string().nullable(),
  ttl_ts: ts.nullable(),
  created: ts,
});
export const WmSetOutput = z.looseObject({
  task_id: int,
  key: z.string(),
  value: z.unknown(),
  created: z.boolean(),
  updated: ts,
});
export const WmUnsetOutput = z.looseObject({
  task_id: int,
  key: z.string(),
  removed: z.boolean().describe('false: the task had no such slot (nothing changed)'),
  value: z.unknown().optional().describe('what the slot held, when it was removed'),
});
export const WmTaskOutput = z.looseObject({ task: Task, slots: Slots });
export const WmListOutput = z.looseObject({ tasks: z.array(Task) });
export const WmCloseOutput = z.looseObject({
  task_id: int,
  closed_at: ts,
  promoted_memory_id: int.nullable(),
  promotion_action: z.string().nullable(),
  warnings,
});
