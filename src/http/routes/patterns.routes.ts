/** Pattern engine and trends routes (SPEC §6): POST /patterns/run, GET /patterns, POST /get_trends. */
import { z } from 'zod';
import { EntityName } from '../../lib/schema.js';
import * as P from '../../patterns/patterns.schemas.js';
import type { Services } from '../../services.js';
import { routes } from '../route.js';

export const patternsRoutes = (s: Services) =>
  routes('patterns', (r) => {
    r.post(
      '/patterns/run',
      P.PatternsRunInput,
      (b) => s.patterns.run(b),
      'Run the detectors now and promote what they find',
    );
    r.get(
      '/patterns',
      z.strictObject({ entity_name: EntityName.optional() }),
      (q) => {
        const promoted = s.patterns.promoted(q.entity_name);
        return { result: `${promoted.length} promoted patterns`, detectors: s.patterns.detectors(), promoted };
      },
      'Detectors and the patterns they promoted',
    );
    r.post('/get_trends', P.GetTrendsInput, (b) => s.trends(b), 'Plain-language trend of a metric over a period');
  });
