/** Tier 4 routes: the seed's paths and field names (SPEC §6). */
import * as P from '../../tiers/prospective/prospective.schemas.js';
import type { ProspectiveService } from '../../tiers/prospective/prospective.service.js';
import { routes } from '../route.js';

export const prospectiveRoutes = (s: { prospective: ProspectiveService }) =>
  routes('prospective', (r) => {
    r.post(
      '/intend',
      P.IntendInput,
      (b) => s.prospective.intend(b, 'http'),
      'Store an intention: when trigger_text happens, do action_text',
    );
    r.post(
      '/check_intentions',
      P.CheckIntentionsInput,
      (b) => s.prospective.check(b, 'http'),
      'Fire the active intentions this text is relevant to',
    );
    r.post(
      '/dismiss_intention',
      P.DismissIntentionInput,
      (b) => s.prospective.dismiss(b, 'http'),
      'Deactivate an intention (kept for the record)',
    );
    r.get(
      '/intentions',
      P.ListIntentionsInput,
      (q) => s.prospective.list(q),
      'List intentions (?entity_name=X&active_only=true)',
    );
  });
