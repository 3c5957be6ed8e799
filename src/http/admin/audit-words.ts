/** The audit log in words a family reads: who did what, to which memory or entity (dashboard "Recent changes"). */
import type { MemoryRow } from '../../tiers/memory/memory.repo.js';
import { html, seg, type Html } from './html.js';

const WHO: Record<string, string> = {
  http: 'an app (HTTP)', mcp: 'an assistant (MCP)', mqtt: 'a device (MQTT)', cli: 'the command line', pattern_engine: 'the pattern engine',
  admin: 'this page', scheduler: 'the scheduler', system: 'Hearth', import: 'an import',
};

const WHAT: Record<string, string> = {
  'memory.add': 'remembered', 'memory.reinforce': 'confirmed again', 'memory.confirm': 'confirmed', 'memory.supersede': 'updated',
  'memory.contest': 'kept as contested', 'memory.forget': 'forgot', 'entity.forget': 'forgot everything about', 'entity.update': 'updated',
  'relation.add': 'related', 'relation.end': 'ended a relation of', 'location.add': 'put', 'location.move': 'moved', 'location.confirm': 'saw again',
  'location.seen': 'saw', 'intention.add': 'set an intention', 'intention.fire': 'fired an intention', 'intention.dismiss': 'dismissed an intention',
  'schedule.add': 'scheduled', 'session.open': 'started a conversation', 'session.close': 'ended a conversation', 'session.turn': 'logged a turn',
  'readings.prune': 'pruned old readings', 'voice.enroll': 'enrolled a voice', 'voice.merge': 'merged voices', 'voice.provisional': 'heard a new voice',
  'voice.update_print': 'updated a voice', 'import.memory-mcp': 'imported a memory-mcp database',
};

export interface AuditLine { actor: string; op: string; target: string | null }

/** Who, what and the target in words; a memory's target is its fact, linked to its entity (when it still exists). */
export function auditInWords(a: AuditLine, memories: { get(id: number): MemoryRow | undefined }): { who: string; what: string; target: Html | string } {
  const who = WHO[a.actor] ?? a.actor;
  const what = WHAT[a.op] ?? a.op.replace(/[._]/g, ' ');
  const id = a.op.startsWith('memory.') && a.target !== null && /^\d+$/.test(a.target) ? Number(a.target) : undefined;
  const m = id === undefined ? undefined : memories.get(id);
  if (m) return { who, what, target: html`<a href="/admin/entity/${seg(m.entity_name)}">${m.entity_name}</a>: ${m.fact}` };
  return { who, what, target: id === undefined ? (a.target ?? '') : `memory ${id} (since forgotten)` };
}
