/**
 * The audit log in words a family reads (dashboard "Recent changes"): who did it, and one sentence
 * naming what changed — "Related Brian → owns → Rex", "Forgot a memory of Rosa: ‘likes tea’ (since
 * forgotten)". What each entry is about comes resolved from the read model (tiers/overview/changes.ts);
 * this file only puts the household's verbs in front. The precise actor and operation are tooltips.
 */
import type { Change, ChangePart } from '../../tiers/overview/changes.js';
import { html, seg, type Html } from './html.js';

const WHO: Record<string, string> = {
  http: 'an app',
  mcp: 'an assistant',
  mqtt: 'a device',
  cli: 'the command line',
  pattern_engine: 'the pattern engine',
  admin: 'you (admin page)',
  scheduler: 'Hearth, on schedule',
  system: 'Hearth',
  import: 'an import',
};

const WHAT: Record<string, string> = {
  'memory.add': 'Remembered about',
  'memory.reinforce': 'Heard again about',
  'memory.confirm': 'Confirmed about',
  'memory.supersede': 'Replaced a memory of',
  'memory.contest': 'Kept a disputed memory of',
  'memory.forget': 'Forgot a memory of',
  'entity.forget': 'Forgot everything about',
  'entity.merge': 'Merged',
  'entity.rename': 'Renamed',
  'entity.type': 'Changed the type of',
  'entity.alias': 'Gave another name to',
  'entity.unalias': 'Took a name from',
  'entity.alias_merge': 'Merged (a Home Assistant name)',
  'entity.alias_proposal': 'Proposed merging (a Home Assistant name)',
  'entity.alias_proposal_closed': 'Dropped the proposed merge (Home Assistant renamed the person) into',
  'entity.update': 'Updated',
  'relation.add': 'Related',
  'relation.end': 'Ended',
  'location.add': 'Put',
  'location.move': 'Moved',
  'location.confirm': 'Saw again',
  'location.seen': 'Saw',
  'intention.add': 'Set a reminder for',
  'intention.fire': 'Reminded',
  'intention.dismiss': 'Dismissed a reminder for',
  'schedule.add': 'Scheduled for',
  'session.open': 'Started a conversation with',
  'session.close': 'Ended a conversation with',
  'session.turn': 'Noted a turn of a conversation with',
  'wm.open': 'Opened the task',
  'wm.set': 'Noted something in the task',
  'wm.close': 'Closed the task',
  'wm.expire': 'Let the task expire:',
  'wm.prune': 'Cleared',
  'readings.prune': 'Cleared',
  'voice.enroll': 'Enrolled the voice of',
  'voice.merge': 'Merged the voice of',
  'voice.provisional': 'Heard a new voice:',
  'voice.update_print': 'Refined the voice of',
  'import.memory-mcp': 'Imported a memory-mcp database:',
};

/** Who, in words, with the actor as stored in the tooltip. */
export const whoInWords = (actor: string): Html => html`<span title="${actor}">${WHO[actor] ?? actor}</span>`;

const part = (p: ChangePart): Html | string =>
  typeof p === 'string' ? p : p.exists ? html`<a href="/admin/entity/${seg(p.entity)}">${p.entity}</a>` : p.entity;

/** The change as one sentence: the verb (its operation in the tooltip), what it is about, and whether that is gone. */
export function changeInWords(c: Change): Html {
  const verb = WHAT[c.op] ?? c.op.replace(/[._]/g, ' ');
  return html`<span title="${c.op}">${verb}</span> ${c.parts.map(part)}${c.gone ? html` <span class="muted">(since forgotten)</span>` : ''}`;
}
