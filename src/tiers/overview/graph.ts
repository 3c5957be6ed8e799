/**
 * The entity graph's read model (`/graph`, `/api/graph`): every entity with the type it is shown as
 * (its stored type, or for an `unknown` one what the data implies: entity-types.ts `inferType`, never
 * written), its current relations, and an edge `in` from each located object to the place it is in.
 * Filters: by shown type, and by a place (that place, what is located in it — also inside what is in
 * it — and what is related to any of those). Read-only; the rows: graph.reader.ts.
 */
import type { Db } from '../../db/open.js';
import { nameKey } from '../../lib/names.js';
import { inferType, type TypeEvidence, UNKNOWN_TYPE } from '../entities/entity-types.js';
import { createGraphReader } from './graph.reader.js';

export interface GraphNode {
  id: number;
  label: string;
  /** The stored type, or the inferred one when the stored type is `unknown` and the data says. */
  type: string;
  /** Present when `type` is inferred: why, in words (the stored type is `unknown`). */
  inferred?: string;
  memory_count: number;
}
export interface GraphEdge {
  id: number;
  from: number;
  to: number;
  label: string;
  /** `relation` (a current relation) or `location` (a located object → its place, label `in`). */
  kind: 'relation' | 'location';
}
export interface GraphQueryInput {
  types?: string[];
  /** A place's name: that place and what is in it or related to it. */
  room?: string;
}
/** Types a room filter offers: places, and any entity something is located in. */
export const PLACE_TYPES = new Set(['room', 'place', 'area', 'floor', 'building', 'garden', 'zone']);

export function createGraphModel(db: Db) {
  const read = createGraphReader(db);

  /** What the data says about each `unknown` entity. */
  function evidence(unknown: Set<number>, rels: GraphEdge[]): Map<number, TypeEvidence> {
    const out = new Map<number, TypeEvidence>();
    const of = (id: number) => {
      let ev = out.get(id);
      if (!ev) out.set(id, (ev = { memories: [], relations: [], metrics: [] }));
      return ev;
    };
    for (const id of read.voices()) if (unknown.has(id)) of(id).voice = true;
    for (const id of read.containers()) if (unknown.has(id)) of(id).container = true;
    for (const r of read.unknownMetrics()) of(r.entity_id).metrics!.push(r.metric);
    for (const r of read.unknownFacts()) of(r.entity_id).memories!.push(r);
    for (const r of rels) {
      if (unknown.has(r.from)) of(r.from).relations!.push({ rel_type: r.label, first: true });
      if (unknown.has(r.to)) of(r.to).relations!.push({ rel_type: r.label, first: false });
    }
    return out;
  }

  /** Every entity with its shown type, and every edge (relations, then located objects). */
  function whole(): { nodes: GraphNode[]; edges: GraphEdge[] } {
    const rows = read.entities();
    const rels = read.relations().map((e) => ({ ...e, kind: 'relation' as const }));
    const locs = read.located().map((e) => ({
      ...e,
      label: 'in',
      kind: 'location' as const,
    }));
    const unknown = new Set(rows.filter((r) => r.type === UNKNOWN_TYPE).map((r) => r.id));
    const ev = unknown.size ? evidence(unknown, rels) : new Map<number, TypeEvidence>();
    const nodes = rows.map((r): GraphNode => {
      const guess = r.type === UNKNOWN_TYPE ? inferType(ev.get(r.id) ?? {}) : undefined;
      return {
        id: r.id,
        label: r.name,
        type: guess?.type ?? r.type,
        ...(guess && { inferred: guess.because }),
        memory_count: r.memory_count,
      };
    });
    return { nodes, edges: [...rels, ...locs] };
  }

  /** The ids a room filter keeps: the place, what is located in it (transitively), and their neighbours. */
  function around(room: number, edges: GraphEdge[]): Set<number> {
    const inside = new Set([room]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const e of edges)
        if (e.kind === 'location' && inside.has(e.to) && !inside.has(e.from)) inside.add(e.from), (grew = true);
    }
    const keep = new Set(inside);
    for (const e of edges) {
      if (inside.has(e.from)) keep.add(e.to);
      if (inside.has(e.to)) keep.add(e.from);
    }
    return keep;
  }

  function filtered(g: { nodes: GraphNode[]; edges: GraphEdge[] }, q: GraphQueryInput) {
    let nodes = g.nodes;
    if (q.room) {
      const key = nameKey(q.room);
      const place = nodes.find((n) => nameKey(n.label) === key);
      const keep = place ? around(place.id, g.edges) : new Set<number>();
      nodes = nodes.filter((n) => keep.has(n.id));
    }
    const wanted = q.types?.length ? new Set(q.types) : null;
    if (wanted) nodes = nodes.filter((n) => wanted.has(n.type));
    const ids = new Set(nodes.map((n) => n.id));
    return { nodes, edges: g.edges.filter((e) => ids.has(e.from) && ids.has(e.to)) };
  }

  return {
    /** The type one entity is shown as: its stored type, or what its data implies while that is `unknown`. */
    shownType(e: { id: number; type: string }): { type: string; inferred?: string } {
      if (e.type !== UNKNOWN_TYPE) return { type: e.type };
      const guess = inferType(read.evidenceOf(e.id));
      return guess ? { type: guess.type, inferred: guess.because } : { type: e.type };
    },

    graph: (q: GraphQueryInput = {}): { nodes: GraphNode[]; edges: GraphEdge[] } => filtered(whole(), q),

    /**
     * The graph page's model in one read: the filtered graph, every shown type with its count, and
     * the places a room filter offers (entities shown as a place type, and anything something is in).
     */
    view(q: GraphQueryInput = {}) {
      const g = whole();
      const n = new Map<string, number>();
      for (const x of g.nodes) n.set(x.type, (n.get(x.type) ?? 0) + 1);
      const types = [...n]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([type, count]) => ({ type, n: count }));
      const holding = new Set(g.edges.filter((e) => e.kind === 'location').map((e) => e.to));
      const places = g.nodes
        .filter((x) => PLACE_TYPES.has(x.type) || holding.has(x.id))
        .map((x) => x.label)
        .sort((a, b) => a.localeCompare(b));
      return { ...filtered(g, q), types, places };
    },
  };
}
export type GraphModel = ReturnType<typeof createGraphModel>;
