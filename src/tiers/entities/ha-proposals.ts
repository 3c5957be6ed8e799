/**
 * Merge proposals from Home Assistant names (issue 35 item 5, docs/identity.md "From Home
 * Assistant"): when HA says person `<id>` is called "Anna" and "Anna" already names another entity
 * of this hub, the two are never folded by the name alone — a retained `friendly_name` topic (anyone
 * with publish rights on `homeassistant/#`, or a slip in HA's person settings) would otherwise merge
 * two people. The hub proposes the merge instead; a person confirms it on the admin entity page (the
 * ordinary merge preview), or leaves it.
 *
 * Kept in the audit log (op `entity.alias_proposal`, no migration): a proposal is open while both
 * entities still exist apart, both names still name them, and HA has not since given that person
 * another name (op `entity.alias_proposal_closed`).
 */
import { nameKey } from '../../lib/names.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { AliasesRepo } from './aliases.repo.js';
import type { EntitiesRepo, EntityRow } from './entities.repo.js';

export interface HaProposal {
  /** The audit row that holds it. */
  id: number;
  ts: number;
  ha_entity_id: string;
  friendly_name: string;
  /** The HA person's entity here: merged away, its name kept as an alias of the target. */
  source_id: number;
  source_name: string;
  /** The entity the friendly name already names: it would keep everything. */
  target_id: number;
  target_name: string;
}

export function createHaProposals(repo: AliasesRepo, entities: EntitiesRepo, audit: AuditRepo) {
  /** Open proposals, oldest first (see above). */
  function open(): HaProposal[] {
    const latest = new Map<string, HaProposal | null>(); // HA person id → its open proposal
    for (const r of repo.proposalRows()) {
      const a = r.after ? (JSON.parse(r.after) as Record<string, unknown>) : {};
      const ha = String(a.ha_entity_id ?? '');
      if (r.op === 'entity.alias_proposal_closed') latest.set(ha, null);
      else latest.set(ha, { id: r.id, ts: r.ts, ...(a as Omit<HaProposal, 'id' | 'ts'>) });
    }
    return [...latest.values()].flatMap((p) => {
      if (!p) return [];
      const src = entities.byId(p.source_id);
      const dst = entities.byId(p.target_id);
      if (!src || !dst) return [];
      if (entities.find(p.ha_entity_id)?.id !== src.id || entities.find(p.friendly_name)?.id !== dst.id) return [];
      return [{ ...p, source_name: src.name, target_name: dst.name }];
    });
  }

  return {
    open,
    /** Open proposals about one entity (either end). */
    of: (entityId: number) => open().filter((p) => p.source_id === entityId || p.target_id === entityId),
    /** Records a proposal unless the same one is open already (a retained topic replays on every reconnect). */
    propose(haId: string, friendly: string, ha: EntityRow, named: EntityRow, actor: Actor): boolean {
      const same = open().find((p) => p.ha_entity_id === haId && p.target_id === named.id && p.source_id === ha.id);
      if (same) return false;
      audit.record(actor, 'entity.alias_proposal', named.name, null, {
        ha_entity_id: haId,
        friendly_name: friendly,
        source_id: ha.id,
        source_name: ha.name,
        target_id: named.id,
        target_name: named.name,
      });
      return true;
    },
    /** HA gave the person another name: its open proposal no longer stands. */
    closeOther(haId: string, friendly: string, actor: Actor): void {
      const p = open().find((x) => x.ha_entity_id === haId);
      if (p && nameKey(p.friendly_name) !== nameKey(friendly))
        audit.record(actor, 'entity.alias_proposal_closed', p.target_name, null, {
          ha_entity_id: haId,
          friendly_name: p.friendly_name,
          now: friendly,
        });
    },
  };
}
export type HaProposals = ReturnType<typeof createHaProposals>;
