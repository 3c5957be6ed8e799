/** Tier 4 operations (SPEC §6): one zod object each, shared by HTTP, MCP and (later) the MQTT bridge. */
import { z } from 'zod';
import { EntityName, EntityType, Text, Timestamp } from '../../lib/schema.js';
import { int, list, str, warnings } from '../../lib/output.js';

/**
 * A boolean that also arrives as text in a GET query string (`?active_only=false`). A union, not a
 * transform, so it still renders to JSON Schema; the service reads it with `flag()`.
 */
export const Flag = z.union([z.boolean(), z.enum(['true', 'false'])]);
export const flag = (v: z.infer<typeof Flag>): boolean => v === true || v === 'true';

export const IntendInput = z.strictObject({
  entity_name: EntityName.describe('whose intention it is, e.g. "Brian"'),
  trigger_text: Text(1000).describe('the situation that should trigger it, in plain words, e.g. "when Anna gets home"'),
  action_text: Text(2000).describe('what to do or say then, e.g. "remind her to call the plumber"'),
  entity_type: EntityType.optional().describe('type used when the entity is new (default person)'),
  once: z.boolean().default(true).describe('deactivate after the first time it fires (default true)'),
  expires_ts: Timestamp.optional().describe('after this time it never fires: epoch seconds or ISO-8601 with zone'),
});
export type IntendInput = z.infer<typeof IntendInput>;

export const CheckIntentionsInput = z.strictObject({
  text: Text(4000).describe('what was just said or happened, e.g. "Anna just got home"'),
  entity_name: EntityName.optional().describe(
    'only intentions of this entity (default: everyone\'s); also who "my" and "our" in the text are ("my wife" → their spouse)',
  ),
});
export type CheckIntentionsInput = z.infer<typeof CheckIntentionsInput>;

/** `intention_id` (or `id`, as the row is named) of the intention to deactivate. */
export const DismissIntentionInput = z
  .strictObject({
    intention_id: z.number().int().positive().optional().describe('the id returned by intend or list_intentions'),
    id: z.number().int().positive().optional().describe('alias of intention_id'),
  })
  .refine((v) => (v.intention_id ?? v.id) !== undefined, { message: 'required', path: ['intention_id'] });
export type DismissIntentionInput = z.infer<typeof DismissIntentionInput>;

export const ListIntentionsInput = z.strictObject({
  entity_name: EntityName.optional().describe("only this entity's intentions (default: everyone's)"),
  active_only: Flag.default(true).describe(
    'only intentions that can still fire (default true); false adds fired, dismissed and expired ones',
  ),
});
export type ListIntentionsInput = z.infer<typeof ListIntentionsInput>;

/** Where an intention stands; derived from the row on read (expiry is never written back). */
export type IntentionStatus = 'active' | 'expired' | 'fired' | 'dismissed';

export interface Intention {
  id: number;
  entity_name: string;
  trigger_text: string;
  action_text: string;
  active: boolean;
  once: boolean;
  expires_at: number | null;
  created: number;
  fired_count: number;
  last_fired: number | null;
  status: IntentionStatus;
}

export interface TriggeredIntention {
  id: number;
  entity_name: string;
  trigger_text: string;
  action_text: string;
  /** Relevance in [0, 1]: the larger of keyword coverage and vector similarity. */
  score: number;
}

// What each operation answers besides `ok` and `result` (describe-only; /docs shows it beside the route).
const Intention = { id: int, entity_name: str, trigger_text: str, action_text: str };
export const IntendOutput = z.looseObject({ id: int, warnings });
export const CheckIntentionsOutput = z.looseObject({
  triggered: list({ ...Intention, score: z.number() }),
  warnings,
});
export const DismissIntentionOutput = z.looseObject({ id: int, dismissed: z.boolean() });
export const ListIntentionsOutput = z.looseObject({ intentions: list(Intention) });
