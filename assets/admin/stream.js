// Live readings: Server-Sent Events from the hub, newest row on top; text only (never HTML).
'use strict';
(function () {
  const MAX_ROWS = 200;
  // As the server shows it (src/http/admin/values.ts): {"mood":"calm"} → "mood calm".
  function show(v) {
    if (typeof v === 'number') return String(Math.round(v * 100) / 100);
    if (Array.isArray(v)) return v.map(show).join(', ');
    if (typeof v === 'object' && v !== null) {
      return Object.keys(v).map((k) => k.replace(/_/g, ' ') + ' ' + (typeof v[k] === 'object' && v[k] !== null ? '(' + show(v[k]) + ')' : show(v[k]))).join(', ');
    }
    return String(v);
  }
  function cell(label, text, href) {
    const td = document.createElement('td');
    td.dataset.label = label;
    if (href) { const a = document.createElement('a'); a.href = href; a.textContent = text; td.appendChild(a); } else td.textContent = text;
    return td;
  }
  function init() {
    const body = document.getElementById('stream-rows');
    const status = document.getElementById('stream-status');
    if (!body || !window.EventSource) return;
    const es = new EventSource(body.dataset.src);
    es.addEventListener('open', () => { status.textContent = 'Live: new readings appear at the top.'; });
    es.addEventListener('error', () => { status.textContent = 'Connection lost; retrying…'; });
    es.addEventListener('dropped', (ev) => { status.textContent = 'Live (busy: ' + ev.data + ' readings skipped in the last moment).'; });
    es.addEventListener('reading', (ev) => {
      const r = JSON.parse(ev.data);
      const empty = document.getElementById('stream-empty');
      if (empty) empty.remove();
      const tr = document.createElement('tr');
      const iso = new Date(r.ts * 1000).toISOString();
      const value = show(r.value) + (r.unit ? ' ' + r.unit : '');
      tr.append(cell('When', iso.slice(0, 19).replace('T', ' ')), cell('Entity', r.entity_name, '/admin/entity/' + encodeURIComponent(r.entity_name)),
        cell('Metric', r.metric), cell('Value', value), cell('Source', r.source));
      tr.className = 'new';
      body.insertBefore(tr, body.firstChild);
      while (body.rows.length > MAX_ROWS) body.deleteRow(-1);
    });
    window.addEventListener('pagehide', () => es.close());
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
