/**
 * GET /admin/sessions?q=&status=: conversations with anyone, newest first, or those whose turns match
 * a search (the episodic service's search); GET /admin/sessions/:id reads one conversation's turns.
 */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { SearchSessionsInput } from '../../../tiers/episodic/episodic.schemas.js';
import { blankIsNone } from './search.js';
import { plural } from '../../../lib/plural.js';
import { html, query, seg } from '../html.js';
import { page, table, when } from '../layout.js';
import { chip, SESSION_STATUS, TIER_STYLES, wordOf } from '../tier-words.js';

export const SessionsQuery = z.object({
  q: z.preprocess(blankIsNone, SearchSessionsInput.shape.query.optional()),
  status: z.enum(['open', 'closed']).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export const SessionParams = z.object({ id: z.coerce.number().int().positive() });

const PAGE = 50;
const ROLE: Record<string, string> = { user: 'They said', assistant: 'Assistant', system: 'Note', tool: 'Tool' };

const statusOf = (st: string) => {
  const w = wordOf(SESSION_STATUS, st);
  return html`<span title="${w.title}">${w.word}</span>`;
};

export async function sessionsPage(req: FastifyRequest, s: Services, q: z.infer<typeof SessionsQuery>) {
  const now = s.clock.now();
  const text = q.q?.trim() || undefined;
  const form = html`<form method="get" action="/admin/sessions" class="search" role="search">
<label>Words said <input type="search" name="q" value="${text ?? ''}" placeholder="e.g. birthday, dentist" autocomplete="off"></label>
<button type="submit">Search</button>
</form>`;
  if (text) {
    const r = await s.episodic.searchSessions({ query: text, limit: 50 });
    const rows = r.results.map(
      (h) => html`<tr><td data-label="With"><a href="/admin/entity/${seg(h.entity_name)}">${h.entity_name}</a></td>
<td class="fact"><a href="/admin/sessions/${h.session_id}#turn-${h.turn_id}">${h.snippet}</a></td>
<td data-label="Said">${when(h.ts, now)}</td></tr>`,
    );
    return page(
      req,
      { title: 'Conversations', active: 'Conversations', styles: TIER_STYLES },
      html`${form}
${table(['With', 'Best matching words', 'Said'], rows, 'No conversation matches.')}
<p><a href="/admin/sessions">All conversations</a></p>`,
    );
  }
  const rows = s.overview.listSessions({ status: q.status, limit: PAGE + 1, offset: q.offset });
  const chipOf = (st: 'open' | 'closed' | undefined) =>
    chip(`/admin/sessions${query({ status: st })}`, st ? wordOf(SESSION_STATUS, st).word : 'all', st === q.status);
  const chips = html`<p class="chips" aria-label="Show">${[undefined, 'open' as const, 'closed' as const].map(chipOf)}</p>`;
  const body = html`${form}${chips}
${table(
  ['With', 'Started', 'Turns', 'Status', 'Summary'],
  rows.slice(0, PAGE).map(
    (x) => html`<tr><td data-label="With"><a href="/admin/entity/${seg(x.entity_name)}">${x.entity_name}</a></td>
<td data-label="Started"><a class="session-link" href="/admin/sessions/${x.id}">${when(x.started_at, now)}</a></td>
<td data-label="Turns">${x.turn_count}</td>
<td data-label="Status">${statusOf(x.status)}</td>
<td data-label="Summary">${x.summary ?? ''}</td></tr>`,
  ),
  'No conversations yet.',
)}
${rows.length > PAGE ? html`<p><a class="button" href="/admin/sessions${query({ status: q.status, offset: q.offset + PAGE })}">More</a></p>` : ''}`;
  return page(req, { title: 'Conversations', active: 'Conversations', styles: TIER_STYLES }, body);
}

export function sessionPage(req: FastifyRequest, s: Services, id: number) {
  const now = s.clock.now();
  const { session, turns } = s.episodic.getSession({ session_id: id });
  const body = html`
<p>With <a href="/admin/entity/${seg(session.entity_name)}">${session.entity_name}</a> · started ${when(session.started_at, now)}
${session.ended_at ? html` · ended ${when(session.ended_at, now)}` : ''} · ${statusOf(session.status)} · ${plural(turns.length, 'turn')}</p>
${session.summary ? html`<p class="summary"><strong>Summary:</strong> ${session.summary}</p>` : ''}
${table(
  ['Who', 'What was said', 'When'],
  turns.map(
    (
      t,
    ) => html`<tr id="turn-${t.id}"><td data-label="Who">${t.role === 'user' ? session.entity_name : (ROLE[t.role] ?? t.role)}</td>
<td class="fact">${t.content}</td>
<td data-label="When">${when(t.ts, now)}</td></tr>`,
  ),
  'Nothing was said in this conversation.',
)}
<p><a href="/admin/sessions">All conversations</a></p>`;
  return page(req, { title: `Conversation with ${session.entity_name}`, active: 'Conversations' }, body);
}
