/**
 * Managing an entity from its page (issue #29): rename, change type, merge with another (a preview
 * page of what moves, then confirm), delete (a page of what goes, then confirm), end a relation.
 * The forms post to actions-manage.ts; every change goes through s.manage (manage.service.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../services.js';
import type { Holdings } from '../../../tiers/entities/manage.service.js';
import { html, query, seg, type Html } from '../html.js';
import { nameKey } from '../../../lib/names.js';
import { csrfField, page } from '../layout.js';

/** A management form answered with a mistake: which field, what was typed, why. */
export interface ManageError {
  field: 'new_name' | 'type' | 'other' | 'delete';
  value?: string;
  message: string;
}

const TYPES = ['person', 'pet', 'room', 'place', 'device', 'sensor', 'object'];

export const entityHref = (name: string) => `/admin/entity/${seg(name)}`;

const errorOf = (err: ManageError | undefined, field: ManageError['field']) =>
  err?.field === field
    ? html`<span class="error field-error" id="error-${field}" role="alert">${err.message}</span>`
    : '';
const typedOr = (err: ManageError | undefined, field: ManageError['field'], fallback: string) =>
  err?.field === field ? (err.value ?? '') : fallback;
const openIf = (err: ManageError | undefined, field: ManageError['field']) => (err?.field === field ? html` open` : '');

/** The "Manage" section of the entity page. */
export function manageSection(
  req: FastifyRequest,
  s: Services,
  e: { id: number; name: string; type: string },
  err?: ManageError,
): Html {
  const self = entityHref(e.name);
  const types = [...new Set([...TYPES, ...s.overview.entityTypes().map((t) => t.type)])].filter((t) => t !== 'unknown');
  const others = s.overview.searchEntities({ limit: 300 }).filter((o) => o.id !== e.id);
  // Merges Home Assistant's names proposed (ha-proposals.ts): never done by the name alone.
  const proposals = s.aliases.proposals(e.id).map(
    (
      p,
    ) => html`<div class="proposal" role="status"><p>Home Assistant calls its person <code>${p.ha_entity_id}</code> “${p.friendly_name}”, which already names ${p.target_name} here. ${p.source_name} and ${p.target_name} were kept apart: a name alone never makes two entities one. If they are the same person, see what would move and confirm there.</p>
<p><a class="button" href="${entityHref(p.source_name)}/merge${query({ other: p.target_name, keep: 'other' })}" data-action="proposal-preview">Preview merging ${p.source_name} into ${p.target_name}</a></p></div>`,
  );
  return html`<section id="manage"><h2>Manage</h2>
${proposals}
<details class="manage"${openIf(err, 'new_name')}><summary>Rename</summary>
<form method="post" action="${self}/rename" class="stack">${csrfField(req)}
<label>New name ${errorOf(err, 'new_name')}<input name="new_name" required maxlength="200" autocomplete="off" value="${typedOr(err, 'new_name', e.name)}"></label>
<p class="muted">Everything stays attached. To undo, rename it back.</p>
<button type="submit" data-action="rename">Rename</button></form></details>
<details class="manage"${openIf(err, 'type')}><summary>Change type</summary>
<form method="post" action="${self}/type" class="stack">${csrfField(req)}
<label>What ${e.name} is ${errorOf(err, 'type')}<input name="type" required maxlength="50" list="entity-types" autocomplete="off" value="${typedOr(err, 'type', e.type === 'unknown' ? '' : e.type)}" placeholder="person, pet, room, device…"></label>
<datalist id="entity-types">${types.map((t) => html`<option value="${t}"></option>`)}</datalist>
<button type="submit" data-action="set-type">Save type</button></form></details>
<details class="manage"${openIf(err, 'other')}><summary>Merge with another entity</summary>
<form method="get" action="${self}/merge" class="stack">
<label>The other entity (the same person or thing under another name) ${errorOf(err, 'other')}<input name="other" required maxlength="200" list="entity-names" autocomplete="off" value="${typedOr(err, 'other', '')}"></label>
<datalist id="entity-names">${others.map((o) => html`<option value="${o.name}"></option>`)}</datalist>
<label>Which name stays <select name="keep"><option value="this" selected>${e.name}</option><option value="other">the other entity's</option></select></label>
<p class="muted">The next page shows what moves; nothing changes until you confirm there.</p>
<button type="submit" data-action="merge-preview">Preview the merge</button></form></details>
<p><a class="button danger" href="${self}/delete" data-action="delete-preview">Delete ${e.name}…</a> ${errorOf(err, 'delete')}</p>
</section>`;
}

/** What an entity holds, as lists: counts, then its facts, relations and other names. */
function holdingsList(h: Holdings): Html {
  return html`<ul class="holdings">${h.counts.length ? h.counts.map((c) => html`<li><strong>${c.n}</strong> ${c.label}</li>`) : html`<li>nothing but its name</li>`}</ul>
${h.facts.length ? html`<h3>Facts</h3><ul class="facts">${h.facts.map((f) => html`<li>${f.fact}${f.status !== 'active' ? html` <span class="muted" title="${f.status}">(an older version)</span>` : ''}</li>`)}</ul>` : ''}
${h.relations.length ? html`<h3>Relations</h3><ul>${h.relations.map((r) => html`<li>${r}</li>`)}</ul>` : ''}
${h.aliases.length ? html`<h3>Other names</h3><ul>${h.aliases.map((a) => html`<li>${a}</li>`)}</ul>` : ''}`;
}

/** GET /admin/entity/:name/merge: what moves from the source to the target, and a form to confirm. */
export function mergePreviewPage(
  req: FastifyRequest,
  from: string,
  keep: 'this' | 'other',
  other: string,
  preview: {
    source_name: string;
    target_name: string;
    source_id: number;
    target_id: number;
    version?: string;
    moves: Holdings;
  },
) {
  const { source_name: src, target_name: dst } = preview;
  const flip = keep === 'this' ? 'other' : 'this';
  const body = html`<p class="lede"><strong>${dst}</strong> keeps everything below; <strong>${src}</strong> goes, and “${src}” stays as another name of ${dst}, so whatever says “${src}” still finds it.</p>
<h2>What moves from ${src} to ${dst}</h2>
${holdingsList(preview.moves)}
<form method="post" action="${entityHref(from)}/merge" class="stack">${csrfField(req)}
<input type="hidden" name="other" value="${other}"><input type="hidden" name="keep" value="${keep}">
<input type="hidden" name="source_id" value="${String(preview.source_id)}"><input type="hidden" name="target_id" value="${String(preview.target_id)}"><input type="hidden" name="version" value="${preview.version ?? ''}">
<button type="submit" class="danger" data-action="merge">Merge ${src} into ${dst}</button></form>
<p><a href="${entityHref(from)}/merge${query({ other, keep: flip })}">The other way round (keep ${src})</a> · <a href="${entityHref(from)}">Cancel</a></p>`;
  return page(req, { title: `Merge ${src} into ${dst}?`, active: 'Entities' }, body);
}

/** GET /admin/entity/:name/delete: what goes with the entity, and a form to confirm. */
export function deleteConfirmPage(
  req: FastifyRequest,
  asked: string,
  preview: { entity_name: string; entity_id: number; version?: string; deletes: Holdings },
) {
  const name = preview.entity_name;
  // Reached under another name (a link from before a merge): say which entity this is.
  const alias =
    nameKey(asked) === nameKey(name)
      ? ''
      : html`<p class="error" role="alert">“${asked}” is another name of ${name}: this deletes ${name}. To drop only the name, leave this page and remove it from ${name}’s other names.</p>`;
  const body = html`${alias}<p class="lede">Deleting ${name} removes it with everything below, for good. This cannot be undone.</p>
<h2>What goes</h2>
${holdingsList(preview.deletes)}
<form method="post" action="${entityHref(name)}/delete" class="stack">${csrfField(req)}
<input type="hidden" name="entity_id" value="${String(preview.entity_id)}"><input type="hidden" name="version" value="${preview.version ?? ''}">
<button type="submit" class="danger" data-action="delete">Delete ${name} for good</button></form>
<p><a href="${entityHref(name)}">Cancel</a></p>`;
  return page(req, { title: `Delete ${name}?`, active: 'Entities' }, body);
}

/** The "end" button of a current relation (entity page). */
export const endRelationForm = (req: FastifyRequest, id: number, next: string) =>
  html`<form method="post" action="/admin/relation/${id}/end" class="inline">${csrfField(req)}<input type="hidden" name="next" value="${next}"><button type="submit" data-action="end-relation" title="End this relation (it stays in the history)">End</button></form>`;
