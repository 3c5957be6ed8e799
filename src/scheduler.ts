/**
 * Background jobs (SPEC §2, §5) on node-cron, each with noOverlap and its own try/catch so one
 * failing job is logged by name and the others keep running:
 *   rollups        every 10 s when new readings were committed (incremental, sliced: timeseries.rollupAll)
 *   embed_pending  every minute: vectors for memories stored while the embedder was down, and
 *                  for conversation turns without one (an import, an outage, a model change)
 *   maintenance    hourly by default: retention prune (after a rollup), WAL checkpoint
 * More jobs (pattern engine, working-memory expiry) register through `add`.
 */
import cron, { type ScheduledTask } from 'node-cron';
import type { Services } from './services.js';
import { internals } from './internals.js';

export interface Scheduler {
  add(name: string, expression: string, job: () => unknown | Promise<unknown>): void;
  /** Runs a job now by name (tests, CLI). */
  run(name: string): Promise<unknown>;
  stop(): void;
}

export function createScheduler(
  services: Services,
  log: (msg: string) => void,
  opts: { maintenance?: string } = {},
): Scheduler {
  const tasks = new Map<string, { task: ScheduledTask; job: () => unknown | Promise<unknown> }>();
  const guarded = (name: string, job: () => unknown | Promise<unknown>) => async () => {
    try {
      return await job();
    } catch (e) {
      log(`scheduler: job ${name} failed: ${(e as Error).message}`);
      return undefined;
    }
  };

  const scheduler: Scheduler = {
    add(name, expression, job) {
      const fn = guarded(name, job);
      const task = cron.schedule(expression, fn, {
        name,
        noOverlap: true,
        timezone: services.config.timeseries.timezone,
      });
      task.unref?.();
      tasks.set(name, { task, job: fn });
    },
    async run(name) {
      const t = tasks.get(name);
      if (!t) throw new Error(`no job named ${name}`);
      return t.job();
    },
    stop() {
      for (const { task } of tasks.values()) void task.stop();
      tasks.clear();
    },
  };

  scheduler.add('rollups', '*/10 * * * * *', async () => {
    if (!services.timeseries.dirty) return;
    services.timeseries.markRolledUp();
    return services.timeseries.rollupAll(); // sliced, one pass at a time (timeseries.service.ts)
  });
  scheduler.add('embed_pending', '30 * * * * *', async () => ({
    ...(await services.memory.embedPending(256)),
    turns: await services.episodic.embedTurns(),
  }));
  if (services.config.patterns.enabled)
    scheduler.add('patterns', services.config.patterns.schedule, () => services.patterns.run({ dry_run: false }));
  scheduler.add('wm_expiry', '*/1 * * * *', () => services.working.expireDue());
  scheduler.add('maintenance', opts.maintenance ?? '0 * * * *', async () => {
    const pruned = await services.prune({ dry_run: false }, 'scheduler');
    services.working.prune(30);
    internals(services).db.pragma('wal_checkpoint(PASSIVE)');
    return pruned;
  });
  return scheduler;
}
