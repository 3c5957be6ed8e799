/** GET /graph (entities and relations, drawn by cytoscape.js served by the hub) and GET /api/graph → {nodes, edges}. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { html, query, seg } from '../html.js';
import { page, table } from '../layout.js';

/** `?type=person,room` or `?type=person&type=room`; `?room=kitchen`: that place and what is in it or related to it. */
export const GraphQuery = z.object({
  type: z.union([z.string().max(500), z.array(z.string().max(50)).max(50)]).optional(),
  room: z.string().trim().max(200).optional(),
});
export type GraphQuery = z.infer<typeof GraphQuery>;
export const typesOf = (q: z.infer<typeof GraphQuery>) =>
  [q.type ?? []]
    .flat()
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * A type's colour (one of admin.css's .c0–.c9) never depends on which other types exist: the common
 * types have their own, any other is placed by a hash of its name.
 */
const KNOWN_COLOURS: Record<string, number> = {
  person: 1,
  room: 2,
  device: 0,
  sensor: 5,
  object: 3,
  pet: 6,
  unknown: 7,
  place: 9,
};
const SPARE = [4, 8];
export function colourIndex(type: string): number {
  if (type in KNOWN_COLOURS) return KNOWN_COLOURS[type];
  let h = 2166136261; // FNV-1a
  for (let i = 0; i < type.length; i++) h = Math.imul(h ^ type.charCodeAt(i), 16777619);
  return SPARE[(h >>> 0) % SPARE.length];
}

/** `spouse_of` → `spouse of`, as the entity page says it. */
export const relationLabel = (relType: string) => relType.replaceAll('_', ' ');

export function graphApi(s: Services, q: GraphQuery) {
  const g = s.overview.graph({ types: typesOf(q), room: q.room || undefined });
  return { ok: true, result: `${g.nodes.length} entities, ${g.edges.length} relations`, ...g };
}

/**
 * cytoscape.js adds an inline <style> (`position: relative` for its container) unless an element
 * with this id exists; the CSP forbids inline styles, so the page has one and admin.css the rule.
 * The filters work without JavaScript (a GET form); the drawing is graph.js (fcose layout).
 */
export function graphPage(req: FastifyRequest, s: Services, q: GraphQuery) {
  const types = typesOf(q);
  const room = q.room || '';
  const g = s.overview.graphView({ types, room: room || undefined });
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const chosen = new Set(types);
  const link = (id: number) => {
    const n = byId.get(id)!;
    return html`<a href="/admin/entity/${seg(n.label)}">${n.label}</a>`;
  };
  const body = html`
<form method="get" action="/graph" class="search graph-filters">
<fieldset class="types"><legend>Show these kinds</legend>
${g.types.map((t) => html`<label class="check"><input type="checkbox" name="type" value="${t.type}"${chosen.has(t.type) ? html` checked` : ''}> <span class="swatch c${colourIndex(t.type)}" data-type="${t.type}" data-color-index="${colourIndex(t.type)}"></span>${t.type} (${t.n})</label>`)}
</fieldset>
<label class="room">Room or place <select name="room"><option value="">The whole home</option>
${g.places.map((p) => html`<option value="${p}"${p === room ? html` selected` : ''}>${p}</option>`)}
</select></label>
<button type="submit">Show</button>
</form>
<p class="muted">${g.nodes.length} entities, ${g.edges.length} links${room ? html` in and around ${room}` : ''}. Tap an entity to open it.</p>
<template id="__________cytoscape_stylesheet"></template>
<div id="graph" data-src="/api/graph${query({ type: types.join(','), room })}" role="img" aria-label="Graph of entities and their relations"></div>
<details><summary>Links as a list</summary>
${table(
  ['From', 'Relation', 'To'],
  g.edges.map(
    (e) =>
      html`<tr><td data-label="From">${link(e.from)}</td><td data-label="Relation">${relationLabel(e.label)}</td><td data-label="To">${link(e.to)}</td></tr>`,
  ),
  'No links between these entities.',
)}
</details>`;
  return page(
    req,
    {
      title: 'Graph',
      active: 'Graph',
      scripts: [
        '/admin/assets/cytoscape.min.js',
        '/admin/assets/layout-base.js',
        '/admin/assets/cose-base.js',
        '/admin/assets/cytoscape-fcose.js',
        '/admin/assets/graph.js',
      ],
    },
    body,
  );
}
