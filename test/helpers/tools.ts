import { OPERATION_TABLES } from '../../src/operations.js';

/** The MCP tools Hearth lists: the seed's 35 (seeds/004, "MCP Tools", plus get_related) and its own. */
export const SEED_TOOLS = [
  'remember',
  'recall',
  'get_context',
  'get_profile',
  'relate',
  'unrelate',
  'get_related',
  'forget',
  'extract_and_remember',
  'record',
  'query_stream',
  'get_trends',
  'schedule',
  'open_session',
  'log_turn',
  'close_session',
  'get_session',
  'search_sessions',
  'wm_open',
  'wm_set',
  'wm_get',
  'wm_list',
  'wm_close',
  'get_context_budget',
  'intend',
  'check_intentions',
  'dismiss_intention',
  'list_intentions',
  'locate',
  'find',
  'seen_at',
  'location_history',
  'cross_query',
  'prune',
  'get_fading_memories',
];

/** Markdown sync and voices (issue #15). */
export const HUB_TOOLS = [
  'export_markdown',
  'import_markdown',
  'identify_speaker',
  'list_unknown_speakers',
  'enroll_speaker',
  'merge_speakers',
  'update_voiceprint',
];

/** Entity aliases (issue #28). */
export const ALIAS_TOOLS = ['add_alias', 'remove_alias'];

/** Entity management over MCP (the admin page's merge, rename and type, for assistants). */
export const ENTITY_TOOLS = ['merge_entities', 'rename_entity', 'set_entity_type'];

/** The tools declared in the tiers' operation tables (src/operations.ts), read from there. */
export const OPERATION_TOOLS = OPERATION_TABLES.flatMap((t) =>
  t.operations.filter((op) => op.mcp !== false).map((op) => op.name),
);

export const ALL_TOOLS = [
  ...new Set([...SEED_TOOLS, ...HUB_TOOLS, ...ALIAS_TOOLS, ...ENTITY_TOOLS, ...OPERATION_TOOLS]),
].sort();

/** The sorted names of a tools/list answer. */
export const toolNames = (tools: { name: string }[]) => tools.map((t) => t.name).sort();
