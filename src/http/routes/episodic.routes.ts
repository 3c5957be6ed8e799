/** Tier 1.5 routes (episodic memory): the seed's paths and field names (SPEC §6). */
import type { EpisodicService } from '../../tiers/episodic/episodic.service.js';
import * as E from '../../tiers/episodic/episodic.schemas.js';
import { routes } from '../route.js';

/** Typed structurally so it compiles against `Services` or a test's own object. */
export const episodicRoutes = (s: { episodic: EpisodicService }) =>
  routes('episodic', (r) => {
    r.post(
      '/open_session',
      E.OpenSessionInput,
      (b) => s.episodic.openSession(b, 'http'),
      'Open a conversation session for an entity',
    );
    r.post(
      '/log_turn',
      E.LogTurnInput,
      (b) => s.episodic.logTurn(b, 'http'),
      'Append a turn (user/assistant/system) to an open session',
    );
    r.post(
      '/close_session',
      E.CloseSessionInput,
      (b) => s.episodic.closeSession(b, 'http'),
      'Close a session; summarised when no summary is given',
    );
    r.get(
      '/get_session/:session_id',
      E.GetSessionInput,
      (q) => s.episodic.getSession({ session_id: q.session_id }),
      'Full transcript of a session',
    );
    r.post(
      '/search_sessions',
      E.SearchSessionsInput,
      (b) => s.episodic.searchSessions(b),
      'Keyword search across conversation turns (FTS5/BM25)',
    );
  });
