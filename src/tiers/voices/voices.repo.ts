/**
 * SQL for voice prints (`voiceprints`), the installation's voice settings (`voice_settings`,
 * migration 010) and the provisional speakers among the entities. Callers own transactions.
 */
import type { Db } from '../../db/open.js';

/** A stored print; the embedding is float32 bytes (prints.ts reads them). */
export interface PrintRow {
  entity_id: number;
  embedding: Buffer;
  samples: number;
  updated: number;
}

export function createVoicesRepo(db: Db) {
  // voice_settings: one row, written by the first print
  const settings = db.prepare('SELECT dim, next_unknown FROM voice_settings WHERE id = 1');
  const fixDim = db.prepare('INSERT OR IGNORE INTO voice_settings (id, dim, created) VALUES (1, ?, ?)');
  const setNextUnknown = db.prepare('UPDATE voice_settings SET next_unknown = ? WHERE id = 1');
  // voiceprints
  const all = db.prepare('SELECT entity_id, embedding, samples, updated FROM voiceprints');
  const one = db.prepare('SELECT entity_id, embedding, samples, updated FROM voiceprints WHERE entity_id = ?');
  const upsert = db.prepare(
    `INSERT INTO voiceprints (entity_id, embedding, samples, updated) VALUES (?, ?, ?, ?)
     ON CONFLICT (entity_id) DO UPDATE SET embedding = excluded.embedding, samples = excluded.samples, updated = excluded.updated`,
  );
  const remove = db.prepare('DELETE FROM voiceprints WHERE entity_id = ?');
  // entities: provisional speakers, with their memory count and print samples
  const unknown = db.prepare(
    `SELECT e.*, (SELECT count(*) FROM memories m WHERE m.entity_id = e.id AND m.status = 'active') AS memory_count,
                (SELECT samples FROM voiceprints v WHERE v.entity_id = e.id) AS samples
           FROM entities e WHERE e.type = 'person' AND json_extract(e.meta, '$.provisional') = 1
            AND coalesce(json_extract(e.meta, '$.detection_count'), 0) >= ?
          ORDER BY coalesce(json_extract(e.meta, '$.detection_count'), 0) DESC, e.id LIMIT ?`,
  );

  return {
    /** The embedding length and the next `unknown_speaker_N` number, or undefined before the first print. */
    settings: () => settings.get() as { dim: number; next_unknown: number } | undefined,
    /** Fixes the embedding length (the first print's; a later call changes nothing). */
    fixDim: (dim: number, now: number) => void fixDim.run(dim, now),
    setNextUnknown: (n: number) => void setNextUnknown.run(n),
    all: () => all.all() as PrintRow[],
    get: (entityId: number) => one.get(entityId) as PrintRow | undefined,
    upsert: (entityId: number, embedding: Buffer, samples: number, now: number) =>
      void upsert.run(entityId, embedding, samples, now),
    remove: (entityId: number) => void remove.run(entityId),
    /** Provisional speakers heard at least `minDetections` times, most heard first (meta is JSON text). */
    unknownSpeakers: (minDetections: number, limit: number) =>
      unknown.all(minDetections, limit) as (Record<string, unknown> & { meta: string; name: string })[],
  };
}
export type VoicesRepo = ReturnType<typeof createVoicesRepo>;
