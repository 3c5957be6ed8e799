/** What the tier pages' tests find in a hub: one of everything, each carrying a hostile value. */
import { rememberByHand, type TestHub } from '../../helpers/hub.js';

/** Shown as text on every tier page, never run: an <img onerror> and a quote-breaking <script>. */
export const HOSTILE = `<img src=x onerror=alert(1)> "'><script>alert(2)</script>`;
/** An entity name that is hostile but a valid name (no slash or control character). */
export const HOSTILE_NAME = `Eve <img src=x onerror=alert(3)> "'>`;
/** The hostile markup as a page shows it: escaped. */
export const SHOWN = '&lt;img src=x onerror=alert(1)&gt;';

/** A unit vector along axis `i` (speakers along different axes never match each other). */
const axis = (i: number, dim = 16) => Array.from({ length: dim }, (_, k) => (k === i ? 1 : 0.01));

export interface Seeded {
  intentionId: number;
  sessionId: number;
  taskId: number;
  voices: string[];
}

export async function seedTiers(hub: TestHub, opts: { patterns?: boolean } = {}): Promise<Seeded> {
  const s = hub.services;
  await rememberByHand(hub, 'Brian', `Brian's note ${HOSTILE}`, { entity_type: 'person' }, 'http');
  await rememberByHand(
    hub,
    'Brian',
    'Brian drinks his coffee black',
    { category: 'preference', entity_type: 'person' },
    'http',
  );
  const intention = await s.prospective.intend(
    {
      entity_name: 'Brian',
      trigger_text: `when Brian mentions the dentist ${HOSTILE}`,
      action_text: `remind him ${HOSTILE}`,
      once: true,
    },
    'http',
  );
  await s.prospective.intend(
    {
      entity_name: 'Anna',
      trigger_text: 'when Anna gets home',
      action_text: 'remind her to call the plumber',
      once: true,
    },
    'http',
  );
  const session = s.episodic.openSession({ entity_name: 'Brian' }, 'http');
  s.episodic.logTurn(
    { session_id: session.session_id, role: 'user', content: `Plan the birthday party ${HOSTILE}` },
    'http',
  );
  s.episodic.logTurn({ session_id: session.session_id, role: 'assistant', content: 'Sure, how many guests?' }, 'http');
  const earlier = s.episodic.openSession({ entity_name: 'Anna' }, 'http');
  s.episodic.logTurn({ session_id: earlier.session_id, role: 'user', content: 'The plumber comes on Monday' }, 'http');
  await s.episodic.closeSession(
    { session_id: earlier.session_id, summary: `Anna booked the plumber ${HOSTILE}` },
    'http',
  );
  const task = s.working.wmOpen({ task_name: `plan the party ${HOSTILE}`, entity_name: 'Brian' }, 'http');
  s.working.wmSet({ task_id: task.task_id, key: 'guests', value: `12 ${HOSTILE}` }, 'http');
  const voices: string[] = [];
  for (const i of [0, 1, 2])
    voices.push(
      s.voices.identify({ embedding: axis(i), room: `kitchen ${HOSTILE}`.slice(0, 100) }, 'http').entity_name,
    );
  s.voices.identify({ embedding: axis(0) }, 'http'); // the first voice heard twice
  if (opts.patterns) await seedPattern(hub);
  return { intentionId: intention.id, sessionId: session.session_id, taskId: task.task_id, voices };
}

/** Three weeks of a steady temperature for HOSTILE_NAME, then a pattern run promotes it. */
async function seedPattern(hub: TestHub) {
  const now = hub.clock.now();
  const readings = Array.from({ length: 21 * 24 }, (_, i) => ({
    entity_name: HOSTILE_NAME,
    entity_type: 'room',
    metric: 'temperature',
    value: 20 + ((i * 7919) % 10) / 20,
    unit: '°C',
    ts: now - 21 * 86_400 + i * 3600 + 600,
  }));
  await hub.services.timeseries.recordBulk({ readings } as never);
  const run = await hub.services.patterns.run({ dry_run: false });
  if (!run.promoted.length) throw new Error(`no pattern promoted: ${run.result}`);
}
