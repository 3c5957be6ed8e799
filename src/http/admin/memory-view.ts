/** One memory as a table row with its actions (confirm, edit, forget), used by the dashboard and entity pages. */
import type { FastifyRequest } from 'fastify';
import { trustLabel } from '../../lib/schema.js';
import { CATEGORIES } from '../../tiers/memory/memory.schemas.js';
import type { RecallHit } from '../../tiers/memory/recall.js';
import { html, seg, type Html } from './html.js';
import { confidence, csrfField, when } from './layout.js';

/** The fields of a recall hit that a row shows. */
export type MemoryView = Pick<
  RecallHit,
  | 'id'
  | 'entity_name'
  | 'fact'
  | 'category'
  | 'confidence'
  | 'effective_confidence'
  | 'source'
  | 'source_trust'
  | 'fact_key'
  | 'last_confirmed'
>;

export const MEMORY_HEAD = ['Fact', 'Category', 'Source', 'Confidence', 'Last confirmed', 'Actions'];
export const MEMORY_HEAD_WITH_ENTITY = ['Entity', ...MEMORY_HEAD];

/** Who a trust tier is, in household words (the tier itself is in the tooltip). */
const TRUST_WORDS: Record<string, string> = {
  user: 'a person',
  hardware: 'a device',
  system: 'Hearth',
  inferred: 'worked out',
  external: 'an outside source',
};
/** A memory's `source` string, where it names a door or a common origin. */
const SOURCE_WORDS: Record<string, string> = {
  admin: 'you (admin page)',
  manual: 'typed in',
  http: 'an app',
  mcp: 'an assistant',
  cli: 'the command line',
  conversation: 'a conversation',
  pattern_engine: 'the pattern engine',
  markdown: 'a Markdown note',
  import: 'an import',
};

/** Where a memory came from, in words; the precise trust tier and source in the tooltip. */
export function sourceCell(m: { source: string; source_trust: number }): Html {
  const label = trustLabel(m.source_trust);
  return html`<span title="trust: ${label} (${m.source_trust} of 5); source: ${m.source}">${TRUST_WORDS[label] ?? label} <span class="muted">(${SOURCE_WORDS[m.source] ?? m.source})</span></span>`;
}

/** A memory's status in words: "current", "replaced", "disputed" (the stored status in the tooltip). */
export function statusWord(status: string): Html {
  const word: Record<string, [string, string]> = {
    active: ['current', 'active'],
    superseded: ['replaced', 'superseded: a newer version replaced it'],
    contested: ['disputed', 'contested: two sources disagree; the more trusted one stays current'],
  };
  const [w, tip] = word[status] ?? [status, status];
  return html`<span title="${tip}">${w}</span>`;
}

/** htmx swaps the row for the answer; without JavaScript the form posts and the page reloads. */
function action(req: FastifyRequest, m: MemoryView, verb: string, label: string, next: string, cls = '') {
  const url = `/admin/memory/${m.id}/${verb}`;
  return html`<form method="post" action="${url}" hx-post="${url}" hx-target="closest tr" hx-swap="outerHTML">
${csrfField(req)}<input type="hidden" name="next" value="${next}"><button type="submit" class="${cls}" data-action="${verb}">${label}</button></form>`;
}

/** `editing`: an edit of this row that had a mistake — shown open, as typed, with the message. */
export interface Editing {
  fact?: string;
  category?: string;
  errors: Record<string, string>;
}

export function memoryRow(
  req: FastifyRequest,
  m: MemoryView,
  now: number,
  opts: { next: string; withEntity?: boolean; edit?: boolean; editing?: Editing },
): Html {
  const ed = opts.editing;
  const chosen = ed?.category ?? m.category;
  const categories = CATEGORIES.map(
    (c) => html`<option value="${c}"${c === chosen ? html` selected` : ''}>${c}</option>`,
  );
  const err = (field: string) =>
    ed?.errors[field] ? html`<span class="error field-error" role="alert">${ed.errors[field]}</span>` : '';
  return html`<tr id="memory-${m.id}" data-memory-id="${m.id}">
${opts.withEntity ? html`<td data-label="Entity"><a href="/admin/entity/${seg(m.entity_name)}">${m.entity_name}</a></td>` : ''}
<td data-label="Fact" class="fact">${m.fact}${m.fact_key ? html` <code class="key">${m.fact_key}</code>` : ''}</td>
<td data-label="Category" class="meta">${m.category}</td>
<td data-label="Source" class="meta">${sourceCell(m)}</td>
<td data-label="Confidence" class="meta" title="stored ${m.confidence}">${confidence(m.effective_confidence)}</td>
<td data-label="Last confirmed" class="meta">${when(m.last_confirmed, now)}</td>
<td data-label="Actions" class="actions">
${action(req, m, 'confirm', 'Confirm', opts.next)}
${
  opts.edit
    ? html`<details class="inline"${ed ? html` open` : ''}><summary>Edit</summary>
<form method="post" action="/admin/memory/${m.id}/edit" class="stack">${csrfField(req)}
<input type="hidden" name="next" value="${opts.next}">
<label>Fact ${err('fact')}<textarea name="fact" required maxlength="4000" rows="3">${ed ? (ed.fact ?? '') : m.fact}</textarea></label>
<label>Category ${err('category')}<select name="category">${categories}</select></label>
<button type="submit" data-action="edit">Save new version</button></form></details>`
    : ''
}
<details class="inline"><summary>Forget…</summary>${action(req, m, 'forget', 'Forget for good', opts.next, 'danger')}</details>
</td>
</tr>`;
}

/** What replaces a row after htmx confirm/forget. */
export const goneRow = (m: { id: number; fact: string }, cols: number) =>
  html`<tr id="memory-${m.id}" class="gone"><td colspan="${cols}">Forgotten: ${m.fact}</td></tr>`;
