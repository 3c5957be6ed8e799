/**
 * The churn of `npm run soak -- --churn 3` (issue #10 item 1): while the soak loads `hearth serve`, a
 * second process — `hearth mcp` on the same data dir, as an MCP client spawns it — forgets an entity
 * that serve is receiving readings for, and creates new entities with readings and memories, every
 * `everySeconds`. Under id reuse serve would file the forgotten sensor's next readings into the new
 * entity's series, or fail whole batches with FOREIGNKEY.
 *
 * Checked per series at the end (`verify`):
 * - every reading in `victimN/level` carries victim N's mark (value = (N + 1) · 10⁷ + seq);
 * - every acknowledged victim reading *sent after* the last forget of that victim answered is stored
 *   (earlier ones may legitimately be gone with the forget);
 * - each `freshK` entity holds exactly the one reading and one memory the churn process gave it;
 * - no tool call failed, apart from forgetting a victim that had no entity yet.
 */
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import mqtt from 'mqtt';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const VICTIMS = 5;
const MARK = 1e7;

export interface ChurnReport {
  cycles: number;
  forgets: number;
  freshCreated: number;
  victimAcked: number;
  victimMustExist: number;
  victimStored: number;
  problems: string[];
}

export async function startChurn(opts: {
  dataDir: string;
  mqttUrl: string;
  everySeconds: number;
  victimRate?: number;
}) {
  const problems: string[] = [];
  const mcp = new Client({ name: 'soak-churn', version: '1.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(process.cwd(), 'dist/src/cli.js'), 'mcp'],
      env: {
        PATH: process.env.PATH ?? '',
        HEARTH_DATA_DIR: opts.dataDir,
        MEMORY_AI_PROVIDER: 'local',
        HEARTH_MQTT_MODE: 'off',
        HEARTH_LOG_LEVEL: 'error',
      },
      stderr: 'inherit',
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; content: { text?: string }[] };
    return { ok: !r.isError, text: r.content.map((c) => c.text ?? '').join(' ') };
  };
  const client = await mqtt.connectAsync(opts.mqttUrl, { clientId: `soak-victims-${process.pid}`, reconnectPeriod: 0 });
  /** Per victim: send time and ack of each seq; when its last forget answered. */
  const sent: { at: number; acked: boolean }[][] = Array.from({ length: VICTIMS }, () => []);
  const forgotAt = new Array<number>(VICTIMS).fill(0);
  let stop = false;
  let cycles = 0;
  let forgets = 0;
  let freshCreated = 0;

  const publisher = (async () => {
    const rate = opts.victimRate ?? 20; // per victim per second
    while (!stop) {
      for (let v = 0; v < VICTIMS; v++) {
        const seq = sent[v].length;
        const entry = { at: Date.now(), acked: false };
        sent[v].push(entry);
        client.publish(`hearth/record/victim${v}/level`, String((v + 1) * MARK + seq), { qos: 1 }, (e) =>
          e ? problems.push(`victim mqtt: ${e.message}`) : (entry.acked = true),
        );
      }
      await new Promise((r) => setTimeout(r, 1000 / rate));
    }
  })();

  const churner = (async () => {
    while (!stop) {
      await new Promise((r) => setTimeout(r, opts.everySeconds * 1000));
      if (stop) break;
      const v = cycles % VICTIMS;
      const f = await call('forget', { entity_name: `victim${v}` });
      if (f.ok) forgets++;
      else if (!/no entity named/.test(f.text)) problems.push(`forget victim${v}: ${f.text.slice(0, 200)}`);
      forgotAt[v] = Date.now();
      // New entities right after the forget: under id reuse they would take the freed ids.
      const name = `fresh${cycles}`;
      const r = await call('record', { entity_name: name, metric: 'level', value: -1 - cycles });
      const m = await call('remember', {
        entity_name: name,
        fact: `${name} was created by the churn process in cycle ${cycles}`,
      });
      if (r.ok && m.ok) freshCreated++;
      else problems.push(`create ${name}: ${(r.ok ? m : r).text.slice(0, 200)}`);
      cycles++;
    }
  })();

  return {
    /** Stops publishing and churning; waits for outstanding acks. */
    async stop(): Promise<void> {
      stop = true;
      await Promise.all([publisher, churner]);
      for (let i = 0; i < 100 && sent.some((s) => s.some((e) => !e.acked)); i++)
        await new Promise((r) => setTimeout(r, 100));
      await client.endAsync(true); // unacknowledged messages are not waited for: they count as not acknowledged
      await mcp.close();
    },
    /** Checks the database (after serve has stopped) against what was acknowledged. */
    verify(db: Database.Database): ChurnReport {
      const values = db
        .prepare(
          "SELECT r.value_num AS v FROM readings r JOIN series s ON s.id = r.series_id JOIN entities e ON e.id = s.entity_id WHERE e.name = ? AND s.metric = 'level'",
        )
        .pluck();
      let victimAcked = 0;
      let victimMustExist = 0;
      let victimStored = 0;
      for (let v = 0; v < VICTIMS; v++) {
        const stored = values.all(`victim${v}`) as number[];
        victimStored += stored.length;
        const wrong = stored.filter((x) => Math.floor(x / MARK) !== v + 1);
        if (wrong.length)
          problems.push(`victim${v}/level holds ${wrong.length} readings sent elsewhere, e.g. ${wrong[0]}`);
        const have = new Set(stored.map((x) => x - (v + 1) * MARK));
        sent[v].forEach((e, seq) => {
          if (!e.acked) return;
          victimAcked++;
          if (e.at <= forgotAt[v]) return;
          victimMustExist++;
          if (!have.has(seq))
            problems.length < 50 &&
              problems.push(`victim${v}: acknowledged reading ${seq} (sent after the last forget) is missing`);
        });
      }
      for (let c = 0; c < cycles; c++) {
        const stored = values.all(`fresh${c}`) as number[];
        if (stored.length !== 1 || stored[0] !== -1 - c)
          problems.push(`fresh${c}/level holds ${JSON.stringify(stored.slice(0, 5))}, expected [${-1 - c}]`);
        const memories = db
          .prepare('SELECT count(*) FROM memories m JOIN entities e ON e.id = m.entity_id WHERE e.name = ?')
          .pluck()
          .get(`fresh${c}`);
        if (memories !== 1) problems.push(`fresh${c} has ${memories} memories, expected 1`);
        const other = db
          .prepare(
            "SELECT count(*) FROM series s JOIN entities e ON e.id = s.entity_id WHERE e.name = ? AND s.metric != 'level'",
          )
          .pluck()
          .get(`fresh${c}`);
        if (other !== 0) problems.push(`fresh${c} has ${other} series it was never sent`);
      }
      return { cycles, forgets, freshCreated, victimAcked, victimMustExist, victimStored, problems };
    },
  };
}
