/**
 * What the memory service's parts (remember.ts, revise.ts, forget.ts, touches.ts) share: the deps the
 * hub passes, the repo, the group commit, and the two steps every write takes for its vector.
 */
import type { Embedder } from '../../ai/types.js';
import type { RelationsService } from './relations.service.js';
import type { WordNet } from '../../ai/wordnet.js';
import { createGroupCommit } from '../../db/group-commit.js';
import type { Db } from '../../db/open.js';
import type { VectorStore } from '../../db/vectors.js';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { DecayConfig } from './decay.js';
import { createMemoryRepo } from './memory.repo.js';
import type { RecallTuning } from './recall.js';

export interface MemoryDeps {
  db: Db;
  clock: Clock;
  embedder: Embedder;
  vectors: VectorStore;
  entities: EntitiesRepo;
  audit: AuditRepo;
  config: DecayConfig & { trust_default_remember: number };
  /** Called after a memory is added (events on MQTT). Errors are the listener's. */
  /** Recall constants; defaults in recall.ts. */
  tuning?: RecallTuning;
  /** Query expansion for recall's keyword coverage (none: stems only). */
  wordnet?: WordNet;
  /** The household's relations: recall reads "my wife", "Chidi's dad" through them (who.ts). */
  relations?: Pick<RelationsService, 'list'>;
  onEntityForgotten?: (name: string) => void;
  onAdded?: (m: { id: number; entity_name: string; fact: string; category: string; action: string }) => void;
}

export type RememberAction = 'added' | 'reinforced' | 'superseded' | 'contested';

export interface RememberResult {
  result: string;
  id: number;
  entity_id: number;
  action: RememberAction;
  /** id of the memory this one replaced (superseded), or that outranks it (contested) */
  superseded: number | null;
  warnings: string[];
}

export function createMemoryContext(deps: MemoryDeps) {
  const { db, embedder, vectors } = deps;
  const repo = createMemoryRepo(db);

  /** Embeds, or returns null with a warning: a provider failure never loses a write (SPEC §4). */
  async function tryEmbed(text: string, warnings: string[]): Promise<Float32Array | null> {
    if (vectors.state !== 'ready') {
      warnings.push(`stored as pending: ${vectors.staleReason()}`);
      return null;
    }
    try {
      return (await embedder.embed([text], { write: true }))[0];
    } catch (e) {
      warnings.push(
        `embedder ${embedder.provider} failed (${(e as Error).message}); ` +
          'the memory is stored and will be embedded later',
      );
      return null;
    }
  }

  function storeVector(id: number, entityId: number, category: string, active: boolean, v: Float32Array | null) {
    if (!v) return;
    // A text with no content words embeds to zeros: nothing to find it by, so nothing to index.
    if (!v.some((x) => x !== 0) || vectors.put(id, entityId, category, active, v)) repo.markEmbedded(id);
  }

  return { ...deps, repo, commits: createGroupCommit(db), tryEmbed, storeVector };
}
export type MemoryContext = ReturnType<typeof createMemoryContext>;
