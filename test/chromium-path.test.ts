/** test/helpers/chromium.ts: the browser tests find Chromium through PLAYWRIGHT_CHROMIUM or PATH. */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from './helpers/chromium.js';

const fakeBin = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-chromium-'));
  writeFileSync(join(dir, name), '#!/bin/sh\n');
  chmodSync(join(dir, name), 0o755);
  return dir;
};

describe('chromiumPath', () => {
  it('takes PLAYWRIGHT_CHROMIUM first, then chromium-browser or google-chrome on PATH', () => {
    const a = fakeBin('google-chrome');
    const b = fakeBin('chromium-browser');
    expect(chromiumPath({ PATH: `${a}:${b}` })).toBe(join(a, 'google-chrome'));
    expect(chromiumPath({ PATH: b, PLAYWRIGHT_CHROMIUM: join(a, 'google-chrome') })).toBe(join(a, 'google-chrome'));
  });

  it('says how to get one when there is none', () => {
    expect(() => chromiumPath({ PATH: fakeBin('firefox') })).toThrow(/no Chromium found .*set PLAYWRIGHT_CHROMIUM/);
    expect(() => chromiumPath({ PATH: '', PLAYWRIGHT_CHROMIUM: '/nonexistent/chrome' })).toThrow(
      /PLAYWRIGHT_CHROMIUM=\/nonexistent\/chrome is not an executable/,
    );
  });
});
