/**
 * How a long-running command (`serve`, `mcp`) ends: once, whoever asks first (SIGTERM, SIGINT, stdin's
 * end, the MCP transport ending), by stopping the hub, then exit 0. A stop that fails, or has not
 * finished after STOP_WAIT_MS (inside systemd's stop timeout), ends the process with one line and
 * exit 1: what was acknowledged is already on disk (WAL).
 */
export const STOP_WAIT_MS = 9000;

export function quitOnce(
  stop: (why: string) => Promise<void>,
  say: (line: string) => void,
): (why: string) => Promise<void> {
  let quitting = false;
  return async (why) => {
    if (quitting) return;
    quitting = true;
    const bail = (line: string) => (say(line), process.exit(1));
    setTimeout(() => bail(`stopping took over ${STOP_WAIT_MS / 1000} s; exiting`), STOP_WAIT_MS).unref();
    try {
      await stop(why);
    } catch (e) {
      return bail(`stopping failed: ${(e as Error).message}`);
    }
    process.exit(0);
  };
}
