/**
 * Tier 1.5 operations (episodic memory), named as in the seed: each declared once for HTTP and MCP
 * (lib/operation.ts). Descriptions are written for the assistant that calls them.
 */
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as E from './episodic.schemas.js';
import type { EpisodicService } from './episodic.service.js';

type S = { episodic: EpisodicService };

export const episodicOperations = operationTable<S>('episodic', (op) => [
  op({
    name: 'open_session',
    http: { method: 'POST', path: '/open_session' },
    input: E.OpenSessionInput,
    output: E.OpenSessionOutput,
    summary: 'Open a conversation session for an entity',
    description:
      'Start recording a conversation with a person (entity_name) when a new exchange begins. Returns session_id: pass it to log_turn for every turn and to close_session at the end.',
    call: (s, input, ctx) => s.episodic.openSession(input, actorOf(ctx)),
  }),
  op({
    name: 'log_turn',
    http: { method: 'POST', path: '/log_turn' },
    input: E.LogTurnInput,
    output: E.LogTurnOutput,
    summary: 'Append a turn (user/assistant/system) to an open session',
    description:
      'Append one turn to an open session, verbatim: role "user" for what the person said, "assistant" for your reply, "system" for notes. ' +
      'Turns cannot be edited or deleted afterwards. Fails with conflict if the session is closed — open a new one.',
    call: (s, input, ctx) => s.episodic.logTurn(input, actorOf(ctx)),
  }),
  op({
    name: 'close_session',
    http: { method: 'POST', path: '/close_session' },
    input: E.CloseSessionInput,
    output: E.CloseSessionOutput,
    summary: 'Close a session; summarised when no summary is given',
    description:
      'Close a session when the conversation ends. Give a 1–3 sentence summary if you have one; otherwise the hub writes one ' +
      '(with its LLM if configured, else by picking the most informative user turns). A closed session accepts no more turns.',
    call: (s, input, ctx) => s.episodic.closeSession(input, actorOf(ctx)),
  }),
  op({
    name: 'get_session',
    http: { method: 'GET', path: '/get_session/:session_id' },
    input: E.GetSessionInput,
    output: E.GetSessionOutput,
    summary: 'Full transcript of a session',
    description:
      'Read the full transcript of one session (every turn, oldest first, plus its summary). Use search_sessions first to find the session_id.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.episodic.getSession(input),
  }),
  op({
    name: 'search_sessions',
    http: { method: 'POST', path: '/search_sessions' },
    input: E.SearchSessionsInput,
    output: E.SearchSessionsOutput,
    summary: 'Keyword search across conversation turns (FTS5/BM25)',
    description:
      'Find what was said in past conversations ("what did we decide about the garden?"): keyword search (FTS5/BM25) over all turns, ' +
      'best matches first, each with session_id, entity, role, time and a snippet with the match in [brackets]. Filter by entity_name. ' +
      'Conversations that may be about it but are not sure come separately in `possible` (low_confidence; the text lists them under ' +
      '"Not sure — possibly related:"): offer them as maybes or read one with get_session, never state them as what was said. ' +
      'Empty results mean nothing was confidently found — do not guess; possible: false returns confident results only.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.episodic.searchSessions(input),
  }),
]);
