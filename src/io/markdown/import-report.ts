/**
 * What one Markdown import run shares between its passes (import.ts): the services it writes
 * through, the notes' conflicts, and the report it returns — with the report in words.
 */
import type { Clock } from '../../lib/clock.js';
import { plural } from '../../lib/plural.js';
import type { AuditRepo } from '../../tiers/audit/audit.repo.js';
import type { AliasesService } from '../../tiers/entities/aliases.service.js';
import type { EntitiesRepo } from '../../tiers/entities/entities.repo.js';
import type { MemoryService } from '../../tiers/memory/memory.service.js';
import type { RelationsService } from '../../tiers/memory/relations.service.js';
import type { History } from './history.js';
import type { ImportMarkdownInput } from './markdown.schemas.js';

export interface ImportDeps {
  clock: Clock;
  entities: EntitiesRepo;
  memory: MemoryService;
  relations: RelationsService;
  audit: AuditRepo;
  /** Adds a note's `aliases:` the hub lacks. */
  aliases: Pick<AliasesService, 'add'>;
  /** Runs `fn` in one write transaction. */
  transaction: <T>(fn: () => T) => T;
}

/** Every change an import makes is audited as this actor. */
export const ACTOR = 'import' as const;

export type ConflictReason = 'stale' | 'forgotten' | 'duplicate_file' | 'alias_taken' | 'merged';
export interface Conflict {
  file: string;
  line?: number;
  entity_name: string;
  reason: ConflictReason;
  message: string;
}

export function newReport() {
  return {
    files: 0,
    entities_created: 0,
    entities_updated: 0,
    unchanged: 0,
    added: 0,
    superseded: 0,
    reinforced: 0,
    contested: 0,
    missing: [] as { entity_name: string; id: number; fact: string }[],
    deleted: 0,
    newer_than_file: 0,
    aliases_added: 0,
    relations_added: 0,
    relations_missing: [] as { entity_a: string; rel_type: string; entity_b: string }[],
    relations_ended: 0,
    conflicts: [] as Conflict[],
    errors: [] as { file: string; line: number; message: string }[],
  };
}
export type ImportReport = ReturnType<typeof newReport>;

/** One import run: what every pass reads and where it reports. */
export interface ImportRun {
  deps: ImportDeps;
  input: ImportMarkdownInput;
  report: ImportReport;
  history: History;
  conflict: (c: Conflict) => void;
  /** The highest memory id when the import began: a higher one is a memory this import stored. */
  maxBefore: number;
}

/** The file name without its folder and `.md`. */
export const fileBase = (path: string) => path.split(/[\\/]/).pop()!.replace(/\.md$/i, '');

/** The report in words (the `result` every door shows). */
export function summary(r: ImportReport, deleteMissing: boolean | undefined): string {
  return (
    `Imported ${r.files} files: ${r.entities_created} entities created, ${r.entities_updated} updated; ` +
    `${r.added} memories added, ${r.superseded} superseded, ${r.reinforced} reinforced, ${r.contested ? `${r.contested} contested, ` : ''}${r.unchanged} unchanged; ` +
    `${r.missing.length} missing from the files (${deleteMissing ? `${r.deleted} forgotten` : 'kept; delete_missing / --delete-missing forgets them'})` +
    `${r.newer_than_file ? `, ${r.newer_than_file} newer than the files (kept)` : ''}; ` +
    `${r.relations_added} relations added, ${r.relations_missing.length} missing${r.aliases_added ? `; ${plural(r.aliases_added, 'other name')} added` : ''}${r.errors.length ? `; ${r.errors.length} lines skipped` : ''}` +
    `${r.conflicts.length ? `; ${r.conflicts.length} conflicts, not applied:\n${r.conflicts.map((c) => `  ${c.file}${c.line ? `:${c.line}` : ''}: ${c.message}`).join('\n')}` : ''}`
  );
}
