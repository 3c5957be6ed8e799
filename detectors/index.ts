/** Built-in detectors (placeholder until the detector files land). */
import type { Detector } from '../src/patterns/detector.js';

export const BUILTIN_DETECTORS: Detector[] = [];
