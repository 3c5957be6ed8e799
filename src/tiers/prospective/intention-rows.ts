/**
 * The stored shape of an intention (migration 005: `intentions` joined with its entity and its
 * `intention_fts` terms; read by prospective.repo.ts), the trigger vector's BLOB form, and the view the doors get.
 */
import type { Intention, IntentionStatus } from './prospective.schemas.js';

export interface Row {
  id: number;
  entity_id: number;
  entity_name: string;
  trigger_text: string;
  action_text: string;
  active: number;
  once: number;
  expires_at: number | null;
  created: number;
  fired_count: number;
  last_fired: number | null;
  embedding: Buffer | null;
  embed_model: string | null;
  terms: string;
}

export const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
export const fromBlob = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

function status(r: Row, now: number): IntentionStatus {
  if (r.active) return r.expires_at !== null && r.expires_at <= now ? 'expired' : 'active';
  return r.once && r.fired_count > 0 ? 'fired' : 'dismissed';
}

export function view(r: Row, now: number): Intention {
  return {
    id: r.id,
    entity_name: r.entity_name,
    trigger_text: r.trigger_text,
    action_text: r.action_text,
    active: r.active === 1,
    once: r.once === 1,
    expires_at: r.expires_at,
    created: r.created,
    fired_count: r.fired_count,
    last_fired: r.last_fired,
    status: status(r, now),
  };
}
