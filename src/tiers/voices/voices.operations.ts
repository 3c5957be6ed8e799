/**
 * Voice operations (docs/voices.md): identify, enroll and merge speakers — the seed's `/voices/*` paths
 * plus POST /voices/identify (SPEC §6), each declared once for HTTP and MCP (lib/operation.ts).
 */
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as V from './voices.schemas.js';
import type { VoicesService } from './voices.service.js';

type S = { voices: VoicesService };

export const voicesOperations = operationTable<S>('voices', (op) => [
  op({
    name: 'identify_speaker',
    http: { method: 'POST', path: '/voices/identify' },
    input: V.IdentifyInput,
    output: V.IdentifyOutput,
    summary: 'Who is speaking: the best enrolled speaker above the threshold, else a provisional unknown_speaker_N',
    description:
      'Given a speaker embedding from the voice pipeline, say who is speaking: the best enrolled (or already provisional) speaker whose voice print is similar enough, ' +
      'else a new provisional person "unknown_speaker_N". Use the returned entity_name for remember/log_turn.',
    call: (s, input, ctx) => s.voices.identify(input, actorOf(ctx)),
  }),
  op({
    name: 'list_unknown_speakers',
    http: { method: 'GET', path: '/voices/unknown' },
    input: V.UnknownInput,
    output: V.UnknownOutput,
    summary: 'Provisional speakers not enrolled yet',
    description:
      'Provisional speakers (unknown_speaker_N) heard but not enrolled yet, most heard first — ask the household who they are.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.voices.unknown(input),
  }),
  op({
    name: 'enroll_speaker',
    http: { method: 'POST', path: '/voices/enroll' },
    input: V.EnrollInput,
    output: V.EnrollOutput,
    summary:
      'Rename a provisional speaker to a real person (everything stays attached), or enroll a person from a sample',
    description:
      'When someone says who an unknown speaker is: rename the provisional speaker (entity_name) to their real name (new_name); every memory and session stays attached. ' +
      "If that person already exists, use merge_speakers instead. With embedding and no new_name, enrolls entity_name's voice from a sample.",
    call: (s, input, ctx) => s.voices.enroll(input, actorOf(ctx)),
  }),
  op({
    name: 'merge_speakers',
    http: { method: 'POST', path: '/voices/merge' },
    input: V.MergeInput,
    output: V.MergeOutput,
    summary: 'Move everything of a provisional speaker onto an enrolled person, in one transaction',
    description:
      'A provisional speaker (source_name) turned out to be a person already known (target_name): moves all memories, sessions, relations, locations, intentions and readings to the target and deletes the provisional one. Cannot be undone.',
    annotations: { destructiveHint: true },
    call: (s, input, ctx) => s.voices.merge(input, actorOf(ctx)),
  }),
  op({
    name: 'update_voiceprint',
    http: { method: 'POST', path: '/voices/update_print' },
    input: V.UpdatePrintInput,
    output: V.UpdatePrintOutput,
    summary: 'Refine a voice print with a new sample (running average, re-normalised)',
    description: "Refine a known speaker's voice print with a new confident sample (running average, re-normalised).",
    call: (s, input, ctx) => s.voices.updatePrint(input, actorOf(ctx)),
  }),
]);
