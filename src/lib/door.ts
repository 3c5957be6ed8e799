/**
 * A door of the hub (docs/ARCHITECTURE.md): something that lets the world in — the HTTP listener,
 * the MQTT broker or client, the scheduler's clock, the MCP stdio transport. `createHub` keeps them in
 * one list: it starts them in order, stops them in reverse, and `/health` merges what each says.
 */
export interface Door {
  readonly name: string;
  /** Opens the door; resolves with the address it listens on, when it listens. */
  start(): Promise<string | undefined>;
  stop(): Promise<void>;
  /** This door's part of `/health` (merged into the answer; `status: 'degraded'` wins). */
  health?(): Record<string, unknown>;
}

/** Starts each door in order; a door that fails to start stops those already started, then throws. */
export async function startDoors(doors: readonly Door[]): Promise<Record<string, string | undefined>> {
  const started: Door[] = [];
  const addresses: Record<string, string | undefined> = {};
  try {
    for (const d of doors) {
      addresses[d.name] = await d.start();
      started.push(d);
    }
  } catch (e) {
    await stopDoors(started, () => {});
    throw e;
  }
  return addresses;
}

/** Stops doors in reverse order of starting; one that fails to close is logged by name, the rest still close. */
export async function stopDoors(doors: readonly Door[], log: (msg: string) => void): Promise<void> {
  for (const d of [...doors].reverse()) {
    try {
      await d.stop();
    } catch (e) {
      log(`${d.name}: close failed: ${(e as Error).message}`);
    }
  }
}

/** The doors' parts of `/health`, merged: degraded if any door says so. */
export function doorsHealth(doors: readonly Door[]): Record<string, unknown> {
  const parts = doors.map((d) => d.health?.() ?? {});
  const merged: Record<string, unknown> = Object.assign({}, ...parts);
  if (parts.some((p) => p.status === 'degraded')) merged.status = 'degraded';
  else delete merged.status;
  return merged;
}
