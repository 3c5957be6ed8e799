/** The tiers' states in household words; the precise (schema) term goes into a `title` tooltip. */
import { html } from './html.js';

export interface Word {
  word: string;
  title: string;
}

export const MEMORY_STATUS: Record<string, Word> = {
  active: { word: 'current', title: 'active: the current version of this fact' },
  superseded: { word: 'replaced', title: 'superseded: a newer version of this fact replaced it' },
  contested: { word: 'disputed', title: 'contested: a more trusted source says otherwise' },
};

export const INTENTION_STATUS: Record<string, Word> = {
  active: { word: 'waiting', title: 'active: will remind when its moment comes' },
  fired: { word: 'reminded', title: 'fired: a one-time reminder that has been given' },
  dismissed: { word: 'dismissed', title: 'dismissed: turned off; kept for the record' },
  expired: { word: 'expired', title: 'expired: its end date has passed' },
};

export const TASK_STATUS: Record<string, Word> = {
  open: { word: 'open', title: 'open: the assistant is still working on it' },
  closed: { word: 'done', title: 'closed: the assistant finished it' },
  expired: { word: 'lapsed', title: 'expired: its time ran out before it was finished' },
};

export const SESSION_STATUS: Record<string, Word> = {
  open: { word: 'ongoing', title: 'open: the conversation has not been closed' },
  closed: { word: 'ended', title: 'closed: the conversation is over' },
};

export const wordOf = (map: Record<string, Word>, key: string): Word => map[key] ?? { word: key, title: key };

/** The tier pages' small stylesheet (tier-assets.ts, served by routes-tiers.ts). */
export const TIER_STYLES = ['/admin/tier-assets/tiers.css'];

/** A filter chip; the current one is marked. */
export const chip = (href: string, label: string, current: boolean) =>
  html`<a class="chip" href="${href}"${current ? html` aria-current="true"` : ''}>${label}</a>`;
