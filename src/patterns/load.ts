/**
 * A user's detectors from `patterns.detectors_dir`: each `<name>/index.js` or `<name>.js|.mjs` whose
 * default export is `defineDetector({...})`. Loaded by the engine (to validate options and list them)
 * and by the detector thread (to run them); one that fails to load is logged by file and skipped.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HubError } from '../lib/errors.js';
import type { Detector } from './detector.js';

export async function loadDetectorDir(dir: string, known: Detector[], log: (msg: string) => void): Promise<Detector[]> {
  if (!existsSync(dir)) throw new HubError('invalid', `patterns.detectors_dir: ${dir} does not exist`);
  const out: Detector[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = entry.isDirectory()
      ? join(dir, entry.name, 'index.js')
      : /\.(m?js)$/.test(entry.name)
        ? join(dir, entry.name)
        : null;
    if (!file || !existsSync(file)) continue;
    try {
      const mod = (await import(pathToFileURL(resolve(file)).href)) as { default?: Detector };
      const d = mod.default;
      if (!d || typeof d.detect !== 'function' || typeof d.name !== 'string')
        throw new Error('default export is not a defineDetector({...})');
      if ([...known, ...out].some((x) => x.name === d.name))
        throw new Error(`a detector named ${d.name} already exists`);
      out.push(d);
    } catch (e) {
      log(`patterns: could not load detector ${file}: ${(e as Error).message}`);
    }
  }
  return out;
}
