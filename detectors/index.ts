/**
 * The built-in detectors (SPEC §5 "Pattern engine"). Each is also loadable on its own as
 * `detectors/<name>/index.js` (default export), the same shape as a user's detector.
 */
import anomaly from './anomaly/index.js';
import categoricalDominance from './categorical_dominance/index.js';
import correlation from './correlation/index.js';
import stableValue from './stable_value/index.js';
import timeOfDayRoutine from './time_of_day_routine/index.js';
import trend from './trend/index.js';
import type { Detector } from '../src/patterns/detector.js';

export const BUILTIN_DETECTORS: Detector[] = [
  stableValue,
  trend,
  categoricalDominance,
  timeOfDayRoutine,
  correlation,
  anomaly,
];

export { anomaly, categoricalDominance, correlation, stableValue, timeOfDayRoutine, trend };
