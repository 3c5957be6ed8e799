/** Tier 1.5 tools (episodic memory), named as in the seed. Descriptions are written for the assistant that calls them. */
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as E from '../../tiers/episodic/episodic.schemas.js';
import type { EpisodicService } from '../../tiers/episodic/episodic.service.js';
import { tool, type ToolTable } from '../tool.js';

/** Registers the episodic tools; `s` is typed structurally so `Services` (or a test object) fits. */
export function episodicTools(table: ToolTable, s: { episodic: EpisodicService }, actor: Actor): void {
  tool(
    table,
    'open_session',
    'Start recording a conversation with a person (entity_name) when a new exchange begins. Returns session_id: pass it to log_turn for every turn and to close_session at the end.',
    E.OpenSessionInput,
    (a) => s.episodic.openSession(a, actor),
  );
  tool(
    table,
    'log_turn',
    'Append one turn to an open session, verbatim: role "user" for what the person said, "assistant" for your reply, "system" for notes. ' +
      'Turns cannot be edited or deleted afterwards. Fails with conflict if the session is closed — open a new one.',
    E.LogTurnInput,
    (a) => s.episodic.logTurn(a, actor),
  );
  tool(
    table,
    'close_session',
    'Close a session when the conversation ends. Give a 1–3 sentence summary if you have one; otherwise the hub writes one ' +
      '(with its LLM if configured, else by picking the most informative user turns). A closed session accepts no more turns.',
    E.CloseSessionInput,
    (a) => s.episodic.closeSession(a, actor),
  );
  tool(
    table,
    'get_session',
    'Read the full transcript of one session (every turn, oldest first, plus its summary). Use search_sessions first to find the session_id.',
    E.GetSessionInput,
    (a) => s.episodic.getSession(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'search_sessions',
    'Find what was said in past conversations ("what did we decide about the garden?"): keyword search (FTS5/BM25) over all turns, ' +
      'best matches first, each with session_id, entity, role, time and a snippet with the match in [brackets]. Filter by entity_name. ' +
      'Conversations that may be about it but are not sure come separately in `possible` (low_confidence; the text lists them under ' +
      '"Not sure — possibly related:"): offer them as maybes or read one with get_session, never state them as what was said. ' +
      'Empty results mean nothing was confidently found — do not guess; possible: false returns confident results only.',
    E.SearchSessionsInput,
    (a) => s.episodic.searchSessions(a),
    { readOnlyHint: true },
  );
}
