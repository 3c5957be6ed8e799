/**
 * A note's memory lines on import (import.ts, docs/markdown-sync.md "Import rules"): a line naming
 * a current memory of the entity and differing from it revises it; a new line is remembered; an
 * active memory no line names is missing (forgotten only with `delete_missing`). A line naming a
 * version the hub has since replaced through another door, or a memory it forgot, is a conflict.
 */
import type { EntityRow } from '../../tiers/entities/entities.repo.js';
import type { MemoryRow } from '../../tiers/memory/memory.repo.js';
import { oneLine, type MdMemory } from './format.js';
import { ACTOR, type ImportRun } from './import-report.js';
import type { Note } from './import-notes.js';

const HOPS = 1000;

/**
 * The memory a line names and its current version. A line that carries `since` names the memory
 * only if that memory has the same valid_from: ids are per hub, and a note from another hub must
 * not edit whatever memory happens to have its ids here; nor can an id above `maxBefore`, the
 * highest id when the import began (a memory this import stored). `gone` is the id the chain ends
 * in when that memory no longer exists (forgotten after a newer version replaced the named one).
 * `stale`: a version after the named one came from another door than a Markdown import (source
 * `markdown`) — a correction the note cannot know about. Versions an earlier import of a note made
 * are the note's own, so a note edited again without a new export still applies.
 */
function versionsOf(
  run: ImportRun,
  line: MdMemory,
  entityId: number,
): { named?: MemoryRow; head?: MemoryRow; gone?: number; stale?: boolean } {
  const { memory } = run.deps;
  const named = line.id === undefined || line.id > run.maxBefore ? undefined : memory.repo.get(line.id);
  if (
    !named ||
    named.entity_id !== entityId ||
    (line.since !== undefined && Math.round(named.valid_from) !== line.since)
  )
    return {};
  let m: MemoryRow | undefined = named;
  let stale = false;
  for (let hops = 0; m.status === 'superseded' && m.superseded_by && hops < HOPS; hops++) {
    const next: MemoryRow | undefined = memory.repo.get(m.superseded_by);
    if (!next) return { named, gone: m.superseded_by };
    m = next;
    stale ||= m.source !== 'markdown';
  }
  return m.entity_id === entityId && m.status !== 'superseded' ? { named, head: m, stale } : { named };
}

/** Applies the note's memory lines to `entity`; `here`: the note came from this hub's entity. */
export async function applyMemoryLines(run: ImportRun, { path, doc }: Note, entity: EntityRow, here: boolean) {
  const { report, history, conflict, maxBefore } = run;
  const { memory } = run.deps;
  const seen = new Set<number>();
  const versions = doc.memories.map((line) => versionsOf(run, line, entity.id));
  // A key holds one value: when several lines give the same key (a new line added under an old
  // one that was not deleted), the last one is the value and the others are left alone, so a
  // second import does not flip the key back. A line without a key field keeps its memory's.
  const keys = doc.memories.map((line, i) =>
    line.key === undefined ? (versions[i].head?.fact_key ?? null) : line.key,
  );
  const lastOfKey = new Map(keys.flatMap((k, i) => (k ? [[k, i] as const] : [])));
  const kept = new Set<number>();
  for (const [i, line] of doc.memories.entries()) {
    const { named, head: byId, gone, stale } = versions[i];
    const key = keys[i];
    const at = { file: path, line: line.line, entity_name: entity.name };
    // Forgotten in the hub after the export (the line still names it): not brought back.
    const forgotten =
      gone ??
      (!named &&
      here &&
      line.id !== undefined &&
      line.id <= maxBefore &&
      history.memoryForgotten(line.id, entity.id, line.since)
        ? line.id
        : undefined);
    if (forgotten !== undefined) {
      conflict({
        ...at,
        reason: 'forgotten',
        message: `memory ${forgotten} was forgotten in the hub after this note was exported; the line was not applied — delete it, or remove its ^m${line.id} to add it again`,
      });
      continue;
    }
    if (key && lastOfKey.get(key) !== i) {
      if (byId) kept.add(byId.id); // not missing: its line is there
      const later = doc.memories[lastOfKey.get(key)!].line;
      report.errors.push({
        file: path,
        line: line.line,
        message: `key: "${key}" is given again on line ${later}, which wins (a key holds one value); this line was left as it is`,
      });
      continue;
    }
    if (byId && seen.has(byId.id)) continue; // the same memory listed twice
    // The memory a line names: by its ^m id, else (a note from another hub, or hand-written) an
    // active memory with the same text. No line field means "as stored" (older notes had no key).
    const head = byId ?? memory.repo.ofEntity(entity.id).find((m) => oneLine(m.fact) === line.fact && !seen.has(m.id));
    if (head) {
      seen.add(head.id);
      // A line matched by text alone keeps the memory's category and trust (as before keys
      // were exported); its key, when it gives one, is the key.
      const category = (byId && line.category) || head.category;
      const trust = (byId && line.trust) || head.source_trust;
      const fact_key = line.key === undefined ? head.fact_key : line.key;
      if (
        oneLine(head.fact) === line.fact &&
        category === head.category &&
        trust === head.source_trust &&
        fact_key === head.fact_key
      ) {
        report.unchanged++;
        continue;
      }
      // The line names an older version than the hub's current one, changed after the export
      // through another door (a correction made on a phone): this line must not replace it.
      if (byId && named && stale) {
        conflict({
          ...at,
          reason: 'stale',
          message: `memory ${named.id} was changed in the hub after this note was exported (now ${byId.id}: "${oneLine(byId.fact).slice(0, 80)}"); the line was not applied — export again and redo the edit`,
        });
        continue;
      }
      try {
        const r = await memory.revise(
          head.id,
          { fact: line.fact, category, source_trust: trust, source: 'markdown', fact_key },
          ACTOR,
        );
        seen.add(r.id);
        if (r.status === 'contested') report.contested++;
        else report.superseded++;
      } catch (e) {
        report.errors.push({ file: path, line: line.line, message: (e as Error).message });
      }
      continue;
    }
    try {
      const r = await memory.remember(
        {
          entity_name: entity.name,
          fact: line.fact,
          category: (line.category ?? 'general') as never,
          confidence: line.confidence ?? 1,
          source: line.source ?? 'markdown',
          source_trust: line.trust ?? 5,
          entity_type: entity.type,
          ...(line.key && { fact_key: line.key }),
          ...(line.since !== undefined && { valid_from: line.since }),
        },
        ACTOR,
      );
      seen.add(r.id);
      report[r.action]++;
    } catch (e) {
      report.errors.push({ file: path, line: line.line, message: (e as Error).message });
    }
  }
  // Another entity merged into this one after the export: its facts (older ids) were never in the
  // note, so "missing" cannot mean "deleted by the household" — they are kept and the note is reported.
  const mergedSince =
    here && doc.origin !== undefined && history.mergedIntoSince(entity.id, entity.name, doc.origin.as_of);
  let kept_by_merge = 0;
  for (const m of memory.repo.ofEntity(entity.id)) {
    if (seen.has(m.id) || kept.has(m.id)) continue;
    // stored after the export: the file never had a line for it to delete
    if (doc.last_memory_id !== undefined && m.id > doc.last_memory_id) {
      report.newer_than_file++;
      continue;
    }
    report.missing.push({ entity_name: entity.name, id: m.id, fact: m.fact });
    if (run.input.delete_missing && mergedSince) kept_by_merge++;
    else if (run.input.delete_missing) {
      memory.forget({ memory_id: m.id }, ACTOR);
      report.deleted++;
    }
  }
  if (kept_by_merge)
    conflict({
      file: path,
      entity_name: entity.name,
      reason: 'merged',
      message: `another entity was merged into ${entity.name} in the hub after this note was exported; the ${kept_by_merge} facts the note lacks were kept, not forgotten — export again before deleting lines`,
    });
}
