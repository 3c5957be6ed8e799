/** Voice tools: identify, enroll and merge speakers (docs/voices.md). */
import type { Services } from '../../services.js';
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as V from '../../tiers/voices/voices.schemas.js';
import { tool, type ToolTable } from '../tool.js';

export function voicesTools(table: ToolTable, s: Services, actor: Actor): void {
  tool(
    table,
    'identify_speaker',
    'Given a speaker embedding from the voice pipeline, say who is speaking: the best enrolled (or already provisional) speaker whose voice print is similar enough, ' +
      'else a new provisional person "unknown_speaker_N". Use the returned entity_name for remember/log_turn.',
    V.IdentifyInput,
    (a) => s.voices.identify(a, actor),
  );
  tool(
    table,
    'list_unknown_speakers',
    'Provisional speakers (unknown_speaker_N) heard but not enrolled yet, most heard first — ask the household who they are.',
    V.UnknownInput,
    (a) => s.voices.unknown(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'enroll_speaker',
    'When someone says who an unknown speaker is: rename the provisional speaker (entity_name) to their real name (new_name); every memory and session stays attached. ' +
      "If that person already exists, use merge_speakers instead. With embedding and no new_name, enrolls entity_name's voice from a sample.",
    V.EnrollInput,
    (a) => s.voices.enroll(a, actor),
  );
  tool(
    table,
    'merge_speakers',
    'A provisional speaker (source_name) turned out to be a person already known (target_name): moves all memories, sessions, relations, locations, intentions and readings to the target and deletes the provisional one. Cannot be undone.',
    V.MergeInput,
    (a) => s.voices.merge(a, actor),
    { destructiveHint: true },
  );
  tool(
    table,
    'update_voiceprint',
    "Refine a known speaker's voice print with a new confident sample (running average, re-normalised).",
    V.UpdatePrintInput,
    (a) => s.voices.updatePrint(a, actor),
  );
}
