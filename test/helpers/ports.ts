/**
 * A free port for a process a test must tell its port up front (Mosquitto, Node-RED, a stand-in broker,
 * `serve --port`). Picked below the kernel's ephemeral range (Linux `ip_local_port_range`), where
 * `listen(0)` and every outgoing connection take theirs: a port from `listen(0)`, closed and handed on,
 * can be taken by another test's connection before the child binds it ("port … is already in use", seen
 * in a Node 22 run). Below the range only another pick like this one could take it.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first ephemeral port (Linux), else the IANA one. */
function ephemeralStart(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // not Linux
  }
  return 49_152;
}

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

export async function freePort(): Promise<number> {
  const high = ephemeralStart();
  const low = Math.max(1024, high - 12_000);
  for (;;) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await bindable(port)) return port;
  }
}
