/**
 * Promoted patterns from an importer (io/memory-mcp): kept under their own detector name and a key
 * that names where they came from, so Hearth's detectors promote their own beside them. The same key
 * twice is one pattern (the id of the one already there).
 */
import type { EntitiesRepo } from '../tiers/entities/entities.repo.js';
import type { PatternsRepo } from '../tiers/patterns/patterns.repo.js';

export interface ImportedPattern {
  entity_name: string;
  metric: string;
  pattern_key: string;
  detector: string;
  memory_id: number | null;
  detected: number;
  evidence: Record<string, unknown>;
}

export function createPatternsImport(deps: { repo: PatternsRepo; entities: EntitiesRepo }) {
  const { repo, entities } = deps;
  return {
    promoted: (p: ImportedPattern): number => repo.imported(entities.get(p.entity_name).id, p),
  };
}
export type PatternsImport = ReturnType<typeof createPatternsImport>;
