/**
 * systemd readiness and watchdog without a native module. Node has no AF_UNIX datagram sockets, so
 * the message to $NOTIFY_SOCKET is sent by `systemd-notify` in a child process; the unit says
 * NotifyAccess=all because that child, not the main pid, sends it. systemd-notify (≥ 246) waits by
 * default until the manager has read the message (sd_notify_barrier), so it is attributed to the
 * service even though the child exits at once. Outside systemd ($NOTIFY_SOCKET unset) all of this is off.
 * See sd_notify(3), systemd.service(5) WatchdogSec=.
 */
import { execFile } from 'node:child_process';

export interface Notifier {
  /** READY=1 (with a status line). */
  ready(status: string): void;
  /** STOPPING=1. */
  stopping(): void;
  close(): void;
}

export function systemdNotifier(
  env: NodeJS.ProcessEnv = process.env,
  log: (msg: string) => void = () => {},
  bin = 'systemd-notify',
): Notifier {
  if (!env.NOTIFY_SOCKET) return { ready() {}, stopping() {}, close() {} };
  let failed = false;
  const send = (...args: string[]) =>
    execFile(bin, args, { env: { ...env } }, (e) => {
      if (e && !failed) {
        failed = true; // one line, not one per watchdog tick
        log(
          `systemd: ${bin} ${args.join(' ')} failed (${e.message.split('\n')[0]}); is the systemd package installed?`,
        );
      }
    });
  let timer: NodeJS.Timeout | undefined;
  const usec = Number(env.WATCHDOG_USEC);
  const forUs = !env.WATCHDOG_PID || Number(env.WATCHDOG_PID) === process.pid;
  return {
    ready(status) {
      send('--ready', `--status=${status}`);
      // Ping at half the interval, from the event loop: a loop stuck for WatchdogSec gets the hub restarted.
      if (usec > 0 && forUs && !timer)
        timer = setInterval(() => send('WATCHDOG=1'), Math.max(1000, usec / 2000)).unref();
    },
    stopping() {
      clearInterval(timer);
      send('--status=stopping', 'STOPPING=1');
    },
    close() {
      clearInterval(timer);
    },
  };
}
