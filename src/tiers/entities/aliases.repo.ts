/**
 * SQL for an entity's other names (`entity_aliases`, migration 011), and for the Home Assistant
 * merge proposals kept in the audit log (ha-proposals.ts). Callers own transactions.
 */
import type { Db } from '../../db/open.js';

export function createAliasesRepo(db: Db) {
  // entity_aliases
  const insert = db.prepare(
    'INSERT INTO entity_aliases (name_key, entity_id, alias, source, created) VALUES (?, ?, ?, ?, ?)',
  );
  const byKey = db.prepare('SELECT name_key, entity_id, alias, source FROM entity_aliases WHERE name_key = ?');
  const remove = db.prepare('DELETE FROM entity_aliases WHERE name_key = ?');
  // audit: the rows that open and close HA merge proposals
  const proposalRows = db.prepare(
    "SELECT id, ts, op, after FROM audit WHERE op IN ('entity.alias_proposal', 'entity.alias_proposal_closed') ORDER BY id",
  );

  return {
    /** Stores an alias the caller has checked is free; the triggers of migration 011 guard the rest. */
    insert: (key: string, entityId: number, alias: string, source: string, now: number) =>
      void insert.run(key, entityId, alias, source, now),
    /** The alias with this name key, or undefined. */
    byKey: (key: string) =>
      byKey.get(key) as { name_key: string; entity_id: number; alias: string; source: string } | undefined,
    remove: (key: string) => void remove.run(key),
    /** Every HA merge proposal and its closing, oldest first (ha-proposals.ts reads which are open). */
    proposalRows: () => proposalRows.all() as { id: number; ts: number; op: string; after: string | null }[],
  };
}
export type AliasesRepo = ReturnType<typeof createAliasesRepo>;
