/**
 * `hearth mcp` stops once, whoever asks (stdin's end, the transport ending, SIGTERM, SIGINT), and a stop
 * that fails or hangs still ends the process in one line: an MCP client that closes it never waits on a
 * process that will not go.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { tempDir } from '../helpers/hub.js';

const fake = vi.hoisted(() => ({
  stop: (): Promise<void> => Promise.resolve(),
  stopped: 0,
  closed: undefined as undefined | (() => void),
}));

vi.mock('../../src/main.js', () => ({
  createHub: async (opts: { onStdioClosed?: () => void }) => {
    fake.closed = opts.onStdioClosed;
    return { notes: [], warnings: [], start: async () => ({}), stop: () => (fake.stopped++, fake.stop()) };
  },
}));

const { runMcpStdio } = await import('../../src/cli/mcp-stdio.js');
const { STOP_WAIT_MS } = await import('../../src/cli/quit.js');

let err: string;
let exits: (number | undefined)[];
const handlers = new Map<string, () => void>();
beforeEach(() => {
  err = '';
  exits = [];
  handlers.clear();
  fake.stop = () => Promise.resolve();
  fake.stopped = 0;
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  vi.spyOn(process, 'exit').mockImplementation(((code?: number) => void exits.push(code)) as never);
  // The command's signal and stdin handlers are kept here, not installed on the test's process.
  vi.spyOn(process, 'on').mockImplementation(((ev: string, f: () => void) => (handlers.set(ev, f), process)) as never);
  vi.spyOn(process.stdin, 'on').mockImplementation(
    ((ev: string, f: () => void) => (handlers.set(`stdin:${ev}`, f), process.stdin)) as never,
  );
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function started() {
  const { config } = loadConfig({ env: { HEARTH_DATA_DIR: tempDir(), HEARTH_MQTT_MODE: 'off' } });
  await runMcpStdio({ config, file: null, args: [], flags: {} } as never);
}
const settle = () => new Promise((r) => setImmediate(r));

describe('hearth mcp stops', () => {
  it('once, whoever asks first and however many ask: exit 0', async () => {
    await started();
    handlers.get('stdin:end')!();
    fake.closed!();
    handlers.get('SIGTERM')!();
    handlers.get('SIGINT')!();
    await settle();
    expect(fake.stopped).toBe(1);
    expect(exits).toEqual([0]);
  });

  it('a stop that fails: one line naming it, exit 1', async () => {
    fake.stop = () => Promise.reject(new Error('database is locked'));
    await started();
    handlers.get('SIGTERM')!();
    await settle();
    expect(exits).toEqual([1]);
    expect(err).toContain('hearth mcp: stopping failed: database is locked\n');
  });

  it('a stop that hangs: after the wait, one line and exit 1', async () => {
    vi.useFakeTimers();
    fake.stop = () => new Promise<void>(() => {});
    await started();
    handlers.get('stdin:end')!();
    await vi.advanceTimersByTimeAsync(STOP_WAIT_MS - 1);
    expect(exits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(exits).toEqual([1]);
    expect(err).toContain(`hearth mcp: stopping took over ${STOP_WAIT_MS / 1000} s; exiting\n`);
  });
});
