/** Voice routes: the seed's `/voices/*` paths plus POST /voices/identify (SPEC §6). */
import type { Services } from '../../services.js';
import * as V from '../../tiers/voices/voices.schemas.js';
import { routes } from '../route.js';

export const voicesRoutes = (s: Services) =>
  routes('voices', (r) => {
    r.post(
      '/voices/identify',
      V.IdentifyInput,
      (b) => s.voices.identify(b, 'http'),
      'Who is speaking: the best enrolled speaker above the threshold, else a provisional unknown_speaker_N',
    );
    r.get('/voices/unknown', V.UnknownInput, (q) => s.voices.unknown(q), 'Provisional speakers not enrolled yet');
    r.post(
      '/voices/enroll',
      V.EnrollInput,
      (b) => s.voices.enroll(b, 'http'),
      'Rename a provisional speaker to a real person (everything stays attached), or enroll a person from a sample',
    );
    r.post(
      '/voices/merge',
      V.MergeInput,
      (b) => s.voices.merge(b, 'http'),
      'Move everything of a provisional speaker onto an enrolled person, in one transaction',
    );
    r.post(
      '/voices/update_print',
      V.UpdatePrintInput,
      (b) => s.voices.updatePrint(b, 'http'),
      'Refine a voice print with a new sample (running average, re-normalised)',
    );
  });
