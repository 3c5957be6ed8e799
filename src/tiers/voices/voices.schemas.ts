/** Voice operations (seed `/voices/*` plus identify): one zod object each, shared by HTTP and MCP. */
import { z } from 'zod';
import { distinctEntities, EntityName, eitherGiven } from '../../lib/schema.js';
import { counts, int, ts } from '../../lib/output.js';

/** A speaker embedding (ECAPA-TDNN 192, resemblyzer 256, …); its length is fixed per installation by the first print. */
export const Embedding = z
  .array(z.number().min(-1e6).max(1e6))
  .min(8, 'a speaker embedding has at least 8 numbers')
  .max(4096)
  .describe('speaker embedding from the voice pipeline; any scale (Hearth L2-normalises it)');

export const IdentifyInput = z.strictObject({
  embedding: Embedding,
  threshold: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('cosine similarity needed to match a known speaker (default 0.75)'),
  room: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('where the voice was heard; kept as first_seen_room of a new speaker'),
});
export type IdentifyInput = z.infer<typeof IdentifyInput>;

export const UnknownInput = z.strictObject({
  limit: z.coerce.number().int().min(1).max(500).default(50).describe('most speakers to list (1-500, default 50)'),
  min_detections: z.coerce
    .number()
    .int()
    .min(0)
    .default(1)
    .describe('only speakers heard at least this many times (default 1)'),
});
export type UnknownInput = z.infer<typeof UnknownInput>;

export const EnrollInput = z
  .strictObject({
    entity_name: EntityName.describe(
      'the provisional speaker (e.g. "unknown_speaker_3"), or a person to enroll with an embedding',
    ),
    new_name: EntityName.optional().describe('the real name to give the provisional speaker, e.g. "Anna"'),
    display_name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('how to address the person, e.g. "Grandma"; kept in the entity\'s meta'),
    embedding: Embedding.optional().describe('enroll entity_name directly from this sample (no rename)'),
  })
  .refine(
    ...eitherGiven(
      'new_name',
      'embedding',
      'give new_name (rename a provisional speaker) or embedding (enroll from a sample)',
    ),
  );
export type EnrollInput = z.infer<typeof EnrollInput>;

export const MergeInput = z
  .strictObject({
    source_name: EntityName.describe('the provisional speaker to merge away, e.g. "unknown_speaker_2"'),
    target_name: EntityName.describe('the enrolled person who keeps everything, e.g. "Brian"'),
  })
  .refine(...distinctEntities('source_name', 'target_name', 'source_name and target_name must differ'));
export type MergeInput = z.infer<typeof MergeInput>;

export const UpdatePrintInput = z.strictObject({
  entity_name: EntityName.describe('the enrolled speaker whose voiceprint the new sample refines'),
  embedding: Embedding,
  weight: z
    .number()
    .gt(0)
    .max(1)
    .optional()
    .describe('share of the new sample (default 1/(samples+1): a running average over every sample)'),
});
export type UpdatePrintInput = z.infer<typeof UpdatePrintInput>;

// What each operation answers besides `ok` and `result` (describe-only; /docs shows it beside the route).
export const IdentifyOutput = z.looseObject({
  entity_name: z.string(),
  entity_id: int,
  provisional: z.boolean(),
  created: z.boolean(),
  similarity: z.number(),
  threshold: z.number(),
  candidates: z.array(z.looseObject({ entity_name: z.string(), similarity: z.number() })),
});
export const UnknownOutput = z.looseObject({
  speakers: z.array(
    z.looseObject({ entity_name: z.string(), first_seen: ts, last_seen: ts, detection_count: int, memory_count: int }),
  ),
});
export const EnrollOutput = z.looseObject({
  entity_id: int,
  entity_name: z.string(),
  previous_name: z.string().nullable().optional(),
  memories_transferred: int.optional(),
  attached: counts.optional(),
});
export const MergeOutput = z.looseObject({
  target_name: z.string(),
  source_deleted: z.string(),
  memories_merged: int,
  readings_merged: int,
  relations_merged: int,
  before: z.looseObject({ source: counts, target: counts }),
});
export const UpdatePrintOutput = z.looseObject({
  entity_name: z.string(),
  voiceprint_samples: int,
  embedding_norm: z.number(),
  similarity_to_sample: z.number(),
});
