/** Tier 5 routes: the seed's paths and field names (SPEC §6). */
import * as S from '../../tiers/spatial/spatial.schemas.js';
import type { SpatialService } from '../../tiers/spatial/spatial.service.js';
import { routes } from '../route.js';

export const spatialRoutes = (s: { spatial: SpatialService }) =>
  routes('spatial', (r) => {
    r.post('/locate', S.LocateInput, (b) => s.spatial.locate(b, 'http'), 'Store or update where an object is');
    r.post(
      '/find',
      S.FindInput,
      (b) => s.spatial.findAsked(b),
      'Last known place of an object, with decayed confidence and age',
    );
    r.post(
      '/seen_at',
      S.SeenAtInput,
      (b) => s.spatial.seenAt(b, 'http'),
      'Confirm an object is still where it was (or seen elsewhere)',
    );
    r.get(
      '/location_history/:entity_name',
      S.LocationHistoryInput,
      (q) => s.spatial.history(q),
      'Every recorded place of an object, newest first',
    );
  });
