/** GET /admin/entity/:name — everything the home knows about one entity, from the tier services. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { EntityName } from '../../../lib/schema.js';
import { Granularity } from '../../../tiers/timeseries/timeseries.schemas.js';
import { CATEGORIES } from '../../../tiers/memory/memory.schemas.js';
import { type Html, html, seg } from '../html.js';
import { csrfField, page, pct, table, when } from '../layout.js';
import { memoryRow, MEMORY_HEAD } from '../memory-view.js';
import { readingsSection, sectionsToc, tierSections } from './entity-sections.js';
import { relationLabel } from './graph.js';
import type { FieldErrors } from '../form-errors.js';
import { endRelationForm, manageSection, type ManageError } from './entity-manage.js';
import { sourceCell, statusWord } from '../memory-view.js';

const MEASURED_FIRST = new Set(['sensor', 'device']);

export const EntityParams = z.object({ name: EntityName });
// An unknown grain (a hand-edited link) falls back to the default rather than an error page.
export const EntityQuery = z.object({ g: Granularity.catch('raw').default('raw') });

/** An entity page answering a form with a mistake: the form filled in as typed, the message by its field. */
export interface EntityForms {
  add?: { fact?: string; category?: string; fact_key?: string; errors: FieldErrors };
  edit?: { id: number; fact?: string; category?: string; errors: FieldErrors };
  /** A refusal that belongs to no single field. */
  error?: string;
  /** A management form (rename, type, merge) with a mistake. */
  manage?: ManageError;
}

const fieldError = (errors: FieldErrors | undefined, field: string) =>
  errors?.[field] ? html`<span class="error field-error" id="error-${field}" role="alert">${errors[field]}</span>` : '';

export function entityPage(
  req: FastifyRequest,
  s: Services,
  name: string,
  g: z.infer<typeof Granularity>,
  forms: EntityForms = {},
) {
  const now = s.clock.now();
  const e = s.entities.get(name, 'name');
  const self = `/admin/entity/${seg(e.name)}`;
  const memories = s.overview.memoriesOf(e.id);
  const history = s.overview.historyOf(e.id);
  const relations = s.relations.list(e.id, { include_history: true });
  const add = forms.add;
  const meta = Object.keys(e.meta).length ? JSON.stringify(e.meta, null, 1) : null;
  // Read-only for now: aliases are set over HTTP/MCP (POST /alias) or by Home Assistant.
  const aliases = s.entities.aliases(e.id).map((a) => a.alias);
  // A sensor's or device's page opens on its readings (a door's week above the fold on a phone).
  const readings = readingsSection(s, e, g, self);
  const readingsFirst = MEASURED_FIRST.has(s.overview.shownType(e).type);

  const body = html`
<p class="lede">${typeTag(s.overview.shownType(e))} known since ${when(e.created, now)}${meta ? html` · <code>${meta}</code>` : ''}</p>
${aliases.length ? html`<p class="aliases">Also known as ${aliases.join(', ')}</p>` : ''}
${sectionsToc(s, e)}
${readingsFirst ? readings : ''}
<section id="memories"><h2>Memories (<span id="memory-count">${memories.length}</span>)</h2>
${forms.error ? html`<p class="error" role="alert">${forms.error}</p>` : ''}
${table(
  MEMORY_HEAD,
  memories.map((m) =>
    memoryRow(req, m, now, { next: self, edit: true, editing: forms.edit?.id === m.id ? forms.edit : undefined }),
  ),
  'Nothing remembered yet.',
  'compact memories',
)}
<details class="add"${add ? html` open` : ''}><summary>Add a memory</summary>
<form method="post" action="${self}/remember" class="stack">${csrfField(req)}
<label>Fact ${fieldError(add?.errors, 'fact')}<textarea name="fact" required maxlength="4000" rows="3" placeholder="${e.name} prefers …">${add?.fact ?? ''}</textarea></label>
<label>Category ${fieldError(add?.errors, 'category')}<select name="category">${CATEGORIES.map((c) => html`<option value="${c}"${c === add?.category ? html` selected` : ''}>${c}</option>`)}</select></label>
<label>Key (optional: makes the fact single-valued) ${fieldError(add?.errors, 'fact_key')}<input name="fact_key" maxlength="100" placeholder="e.g. bedroom_temp_night" value="${add?.fact_key ?? ''}"></label>
<button type="submit" data-action="remember">Remember</button>
</form></details>
<h3>History (${history.length})</h3>
${table(
  ['Fact', 'Status', 'Source', 'Stored confidence', 'Valid', 'Replaced by'],
  history.map(
    (m) =>
      html`<tr class="${m.status}"><td data-label="Fact" class="fact">${m.fact}</td><td data-label="Status">${statusWord(m.status)}</td><td data-label="Source">${sourceCell(m)}</td><td data-label="Stored confidence">${pct(m.confidence)}</td><td data-label="Valid">${when(m.valid_from, now)} → ${m.valid_until ? when(m.valid_until, now) : 'now'}</td><td data-label="Replaced by">${m.superseded_by ? (s.memory.get(m.superseded_by)?.fact ?? 'a version since forgotten') : ''}</td></tr>`,
  ),
  'No older or disputed versions.',
)}
</section>

<section id="relations"><h2>Relations</h2>
${table(
  ['Relation', 'Since', 'Until', 'Actions'],
  relations.map(
    (r) =>
      html`<tr${r.valid_until ? html` class="ended"` : ''} data-relation-id="${r.id}"><td data-label="Relation">${r.direction === 'out' ? html`${e.name} <em>${relationLabel(r.rel_type)}</em> <a href="/admin/entity/${seg(r.other)}">${r.other}</a>` : html`<a href="/admin/entity/${seg(r.other)}">${r.other}</a> <em>${relationLabel(r.rel_type)}</em> ${e.name}`}</td><td data-label="Since">${when(r.valid_from, now)}</td><td data-label="Until">${r.valid_until ? when(r.valid_until, now) : 'current'}</td><td data-label="Actions" class="actions">${r.valid_until ? '' : endRelationForm(req, r.id, self)}</td></tr>`,
  ),
  'No relations.',
)}
</section>
${readingsFirst ? '' : readings}
${tierSections(s, e)}
${manageSection(req, s, e, forms.manage)}`;
  return page(
    req,
    {
      title: e.name,
      active: 'Entities',
      styles: ['/admin/assets/uPlot.min.css'],
      scripts: ['/admin/assets/uPlot.iife.min.js', '/admin/assets/charts.js'],
    },
    body,
  );
}

/** The entity's type; one inferred from its data (stored as unknown) says so and why in a tooltip. */
const typeTag = (t: { type: string; inferred?: string }): Html =>
  t.inferred
    ? html`<span class="tag" title="Type not set; a guess from the data: ${t.inferred}">${t.type}?</span>`
    : html`<span class="tag">${t.type}</span>`;
