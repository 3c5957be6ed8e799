/**
 * `hearth doctor` always answers: an embedder that never loads is reported after EMBEDDER_WAIT_MS, and
 * the checks are printed before the hub closes, so a close that fails or hangs cannot swallow them
 * (a doctor run that printed nothing at all was seen once in CI, beside a running serve).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { tempDir } from '../helpers/hub.js';

const fake = vi.hoisted(() => ({
  ping: (): Promise<boolean> => Promise.resolve(true),
  stop: (): Promise<void> => Promise.resolve(),
  stopped: 0,
}));

vi.mock('../../src/main.js', () => ({
  createHub: async () => ({
    services: {
      status: {
        snapshot: () => ({
          entities: 0,
          memories: { total: 0 },
          relations: { total: 0 },
          vectors: { state: 'ready' },
          pending_embedding: 0,
        }),
      },
      embedder: { provider: 'local', model: 'use-lite', dim: 512, ping: () => fake.ping() },
      wordnet: { available: () => false, stats: () => ({}) },
    },
    stop: () => (fake.stopped++, fake.stop()),
  }),
}));
vi.mock('../../src/ai/wordnet-coverage.js', () => ({ prepareQuery: () => undefined }));
vi.mock('../../src/ai/wordnet.js', () => ({ describeWordNet: () => 'WordNet' }));

const { runDoctor, EMBEDDER_WAIT_MS, CLOSE_WAIT_MS } = await import('../../src/cli/doctor.js');

let out: string;
let err: string;
beforeEach(() => {
  out = '';
  err = '';
  fake.ping = () => Promise.resolve(true);
  fake.stop = () => Promise.resolve();
  fake.stopped = 0;
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function ctx() {
  const dir = tempDir();
  const { config } = loadConfig({ env: { HEARTH_DATA_DIR: dir, HEARTH_MQTT_MODE: 'off' } });
  return { config, file: null, args: [], flags: { json: true } };
}
const check = (name: string) => JSON.parse(out).checks.find((c: { name: string }) => c.name === name);

describe('doctor always answers', () => {
  it('an embedder that never answers is a failed check after the wait, not a hang', async () => {
    fake.ping = () => new Promise<boolean>(() => {});
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const done = runDoctor(ctx());
    await vi.advanceTimersByTimeAsync(EMBEDDER_WAIT_MS);
    expect(await done).toBe(1);
    expect(check('embedder')).toEqual({
      name: 'embedder',
      ok: false,
      detail: `local/use-lite (512 dims) did not answer within ${EMBEDDER_WAIT_MS / 1000} s`,
    });
    expect(fake.stopped).toBe(1);
  });

  it('the checks are printed before the hub closes; a close that hangs ends the process after the wait', async () => {
    let printedBeforeStop = false;
    fake.stop = () => ((printedBeforeStop = out.includes('"checks"')), new Promise<void>(() => {}));
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const done = runDoctor(ctx());
    await vi.advanceTimersByTimeAsync(CLOSE_WAIT_MS);
    await done;
    expect(printedBeforeStop).toBe(true);
    expect(check('embedder').ok).toBe(true);
    expect(exit).toHaveBeenCalledWith(JSON.parse(out).ok ? 0 : 1);
    expect(err).toContain(`the hub did not close within ${CLOSE_WAIT_MS / 1000} s`);
  });

  it('a close that fails is one line on stderr; the checks stand', async () => {
    fake.stop = () => Promise.reject(new Error('worker would not stop'));
    const exit = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const code = await runDoctor(ctx());
    expect(check('embedder').ok).toBe(true);
    expect(err).toBe('hearth doctor: closing the hub failed: worker would not stop\n');
    expect(exit).not.toHaveBeenCalled();
    expect(code).toBe(JSON.parse(out).ok ? 0 : 1);
  });
});
