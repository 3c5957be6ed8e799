// The entity graph: cytoscape.js over /api/graph, laid out by fcose (labels counted in the node sizes, so
// they do not overlap); colour by type (the legend's, fixed per type), a seeded layout, tap opens the entity.
'use strict';
(function () {
  const PALETTE = [
    '#8a3b12',
    '#1f6fb2',
    '#2f8a3c',
    '#a0529c',
    '#c58a00',
    '#0f8a8a',
    '#b23a48',
    '#5a5a5a',
    '#6b4ea8',
    '#7a8a1f',
  ];
  // mulberry32: a small seeded generator, so the layout does not change between loads.
  function seeded(seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6d2b79f5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  // Start positions on a circle in id order (the API lists nodes by id).
  function circle(nodes) {
    const out = {};
    const r = 40 * Math.max(3, nodes.length);
    nodes.forEach((n, i) => {
      const a = (2 * Math.PI * i) / Math.max(1, nodes.length);
      out['n' + n.id] = { x: r * Math.cos(a), y: r * Math.sin(a) };
    });
    return out;
  }
  // Room around the drawing when it is fitted to its box (px).
  const FIT_PADDING = 12;
  // Node boxes, labels included, that overlap one another.
  function overlaps(cy) {
    const boxes = cy.nodes().map((n) => n.boundingBox({ includeLabels: true }));
    let n = 0;
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) n++;
      }
    return n;
  }
  // A drawing wider (for its box) than a phone's tall box: narrow it and stretch it upwards, as far
  // as no two entities' labels come to overlap, so the fitted drawing is larger and its labels legible.
  function fillTallBox(cy, box) {
    const bb = cy.elements().boundingBox();
    if (!(bb.w / bb.h > (box.w / box.h) * 1.2)) return;
    const start = cy.nodes().map((n) => ({ n, x: n.position('x'), y: n.position('y') }));
    const before = overlaps(cy);
    const cx = (bb.x1 + bb.x2) / 2;
    const cyy = (bb.y1 + bb.y2) / 2;
    for (const f of [0.6, 0.7, 0.8, 0.9]) {
      start.forEach((p) => p.n.position({ x: cx + (p.x - cx) * f, y: cyy + (p.y - cyy) / f }));
      if (overlaps(cy) <= before) return;
    }
    start.forEach((p) => p.n.position({ x: p.x, y: p.y }));
  }
  function init() {
    const el = document.getElementById('graph');
    if (!el || typeof cytoscape === 'undefined') return;
    const colour = {};
    document.querySelectorAll('[data-type][data-color-index]').forEach((s) => {
      colour[s.dataset.type] = PALETTE[Number(s.dataset.colorIndex)];
    });
    // A phone: a tighter layout and smaller labels, so the whole home fits its width and stays legible.
    const narrow = el.clientWidth < 600;
    fetch(el.dataset.src, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((g) => {
        const elements = g.nodes
          .map((n) => ({
            data: {
              id: 'n' + n.id,
              label: n.label,
              type: n.type,
              inferred: n.inferred || '',
              colour: colour[n.type] || '#5a5a5a',
            },
          }))
          .concat(
            g.edges.map((e) => ({
              data: {
                id: (e.kind === 'location' ? 'l' : 'e') + e.id,
                kind: e.kind,
                source: 'n' + e.from,
                target: 'n' + e.to,
                label: String(e.label).replace(/_/g, ' '),
              },
            })),
          );
        const cy = cytoscape({
          container: el,
          elements,
          minZoom: 0.05,
          maxZoom: 3,
          style: [
            {
              selector: 'node',
              style: {
                'background-color': 'data(colour)',
                label: 'data(label)',
                'font-size': narrow ? 13 : 15,
                color: '#222',
                'text-valign': 'bottom',
                'text-margin-y': 5,
                'text-wrap': 'ellipsis',
                'text-max-width': narrow ? '110px' : '150px',
                'text-background-color': '#fff',
                'text-background-opacity': 0.85,
                'text-background-padding': '2px',
                width: 26,
                height: 26,
              },
            },
            {
              selector: 'edge',
              style: {
                width: 2,
                'line-color': '#b9b0aa',
                'target-arrow-color': '#b9b0aa',
                'target-arrow-shape': 'triangle',
                'curve-style': 'bezier',
                label: 'data(label)',
                'font-size': narrow ? 11 : 13,
                color: '#5a4a40',
                'text-rotation': 'autorotate',
                'text-background-color': '#f6f5f2',
                'text-background-opacity': 1,
                'text-background-padding': '2px',
                'text-background-shape': 'roundrectangle',
              },
            },
            {
              selector: 'edge[kind = "location"]',
              style: { 'line-style': 'dashed', 'line-color': '#9cbfa3', 'target-arrow-color': '#9cbfa3' },
            },
          ],
          layout: { name: 'preset', positions: circle(g.nodes) },
        });
        // The same drawing on every load: fcose's few random numbers come from a fixed seed while it
        // runs (synchronously: no animation). Labels count in the node sizes, so they keep apart;
        // long edges leave room for the relation's label between the nodes. No tiling: nodes with
        // no link float beside the rest instead of lining up in a grid below.
        const random = Math.random;
        Math.random = seeded(g.nodes.length + 1);
        try {
          const fcose = typeof cytoscape('layout', 'fcose') === 'function';
          cy.layout(
            fcose
              ? {
                  name: 'fcose',
                  quality: 'proof',
                  randomize: true,
                  animate: false,
                  fit: true,
                  padding: 24,
                  nodeDimensionsIncludeLabels: true,
                  tile: false,
                  idealEdgeLength: () => (narrow ? 65 : 90),
                  nodeSeparation: narrow ? 40 : 60,
                  nodeRepulsion: () => (narrow ? 4500 : 6000),
                  edgeElasticity: () => 0.45,
                  gravity: narrow ? 2 : 1.2,
                  gravityRange: narrow ? 1 : 1.2,
                  numIter: 2500,
                }
              : { name: 'cose', animate: false, randomize: false, padding: 20 },
          ).run();
        } finally {
          Math.random = random;
        }
        // The whole drawing fits its box on load, labels included (drag and pinch to look closer). A
        // wide drawing in a tall box (a phone) is turned a quarter first, and a tall one in a wide box,
        // so it fills the box instead of shrinking to its narrow side.
        const box = { w: el.clientWidth, h: el.clientHeight };
        const bb = cy.elements().boundingBox();
        if (box.h > box.w !== bb.h > bb.w && Math.abs(bb.w - bb.h) > 0.15 * Math.max(bb.w, bb.h))
          cy.nodes().positions((n) => ({ x: n.position('y'), y: -n.position('x') }));
        fillTallBox(cy, box);
        cy.fit(cy.elements(), FIT_PADDING);
        cy.on('tap', 'node', (ev) => {
          window.location.href = '/admin/entity/' + encodeURIComponent(ev.target.data('label'));
        });
        el.dataset.ready = String(g.nodes.length);
        window.hearthGraph = cy; // for tests and the curious: the cytoscape instance
      })
      .catch((e) => {
        el.textContent = 'Could not load the graph (' + e.message + ').';
      });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
