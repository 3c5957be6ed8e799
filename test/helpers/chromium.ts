/**
 * The Chromium the browser tests drive (playwright-core brings no browser): $PLAYWRIGHT_CHROMIUM if set,
 * else the first of chromium, chromium-browser, google-chrome on PATH. Absent, the test fails with
 * one line saying how to get one, instead of playwright's "executable doesn't exist" stack.
 */
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { delimiter, join } from 'node:path';

const NAMES = ['chromium', 'chromium-browser', 'google-chrome'];

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.PLAYWRIGHT_CHROMIUM;
  if (set) {
    if (!runnable(set))
      throw new Error(`PLAYWRIGHT_CHROMIUM=${set} is not an executable file; point it at a Chromium or Chrome binary`);
    return set;
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of NAMES) if (runnable(join(dir, name))) return join(dir, name);
  }
  throw new Error(
    `no Chromium found (looked for ${NAMES.join(', ')} on PATH): install one (apt-get install chromium) or set PLAYWRIGHT_CHROMIUM to its path`,
  );
}

function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Headless Chromium as every browser test starts it: quiet (no updates, sync or background traffic)
 * and able to run as root in CI. Playwright adds --headless and a fresh temporary --user-data-dir of
 * its own (it refuses one in args).
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
