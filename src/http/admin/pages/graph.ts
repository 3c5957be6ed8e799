/** GET /graph (entities and relations, drawn by cytoscape.js served by the hub) and GET /api/graph → {nodes, edges}. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../services.js';
import { html, query, seg } from '../html.js';
import { page, table } from '../layout.js';

/** `?type=person,room` or `?type=person&type=room`. */
export const GraphQuery = z.object({ type: z.union([z.string().max(500), z.array(z.string().max(50)).max(50)]).optional() });
export const typesOf = (q: z.infer<typeof GraphQuery>) =>
  [q.type ?? []].flat().flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean);

/**
 * A type's colour (one of admin.css's .c0–.c9) never depends on which other types exist: the common
 * types have their own, any other is placed by a hash of its name.
 */
const KNOWN_COLOURS: Record<string, number> = { person: 1, room: 2, device: 0, sensor: 5, object: 3, pet: 6, unknown: 7 };
const SPARE = [4, 8, 9];
export function colourIndex(type: string): number {
  if (type in KNOWN_COLOURS) return KNOWN_COLOURS[type];
  let h = 2166136261; // FNV-1a
  for (let i = 0; i < type.length; i++) h = Math.imul(h ^ type.charCodeAt(i), 16777619);
  return SPARE[(h >>> 0) % SPARE.length];
}

/** `spouse_of` → `spouse of`, as the entity page says it. */
export const relationLabel = (relType: string) => relType.replaceAll('_', ' ');

export function graphApi(s: Services, types: string[]) {
  const g = s.overview.graph({ types });
  return { ok: true, result: `${g.nodes.length} entities, ${g.edges.length} relations`, ...g };
}

/**
 * cytoscape.js adds an inline <style> (`position: relative` for its container) unless an element
 * with this id exists; the CSP forbids inline styles, so the page has one and admin.css the rule.
 */
export function graphPage(req: FastifyRequest, s: Services, types: string[]) {
  const all = s.overview.entityTypes();
  const g = s.overview.graph({ types });
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const chosen = new Set(types);
  const body = html`
<form method="get" action="/graph" class="search">
<fieldset class="types"><legend>Types</legend>
${all.map((t) => html`<label class="check"><input type="checkbox" name="type" value="${t.type}"${chosen.has(t.type) ? html` checked` : ''}> <span class="swatch c${colourIndex(t.type)}" data-type="${t.type}" data-color-index="${colourIndex(t.type)}"></span>${t.type} (${t.n})</label>`)}
</fieldset>
<button type="submit">Show</button>
</form>
<p class="muted">${g.nodes.length} entities, ${g.edges.length} current relations. Tap an entity to open it.</p>
<template id="__________cytoscape_stylesheet"></template>
<div id="graph" data-src="/api/graph${query({ type: types.join(',') })}" role="img" aria-label="Graph of entities and their relations"></div>
<details><summary>Relations as a list</summary>
${table(['From', 'Relation', 'To'], g.edges.map((e) => {
  const a = byId.get(e.from)!;
  const b = byId.get(e.to)!;
  return html`<tr><td data-label="From"><a href="/admin/entity/${seg(a.label)}">${a.label}</a></td><td data-label="Relation">${relationLabel(e.label)}</td><td data-label="To"><a href="/admin/entity/${seg(b.label)}">${b.label}</a></td></tr>`;
}), 'No relations between these entities.')}
</details>`;
  return page(req, { title: 'Graph', active: 'Graph', scripts: ['/admin/assets/cytoscape.min.js', '/admin/assets/graph.js'] }, body);
}
