// Live readings: Server-Sent Events from the hub, newest row on top; text only (never HTML).
'use strict';
(function () {
  const MAX_ROWS = 200;
  // As the server shows it (src/http/admin/values.ts): {"mood":"calm"} → "mood calm".
  function show(v) {
    if (typeof v === 'number') return String(Math.round(v * 100) / 100);
    if (Array.isArray(v)) return v.map(show).join(', ');
    if (typeof v === 'object' && v !== null) {
      return Object.keys(v)
        .map(
          (k) =>
            k.replace(/_/g, ' ') +
            ' ' +
            (typeof v[k] === 'object' && v[k] !== null ? '(' + show(v[k]) + ')' : show(v[k])),
        )
        .join(', ');
    }
    return String(v);
  }
  function cell(label, text, href) {
    const td = document.createElement('td');
    td.dataset.label = label;
    if (href) {
      const a = document.createElement('a');
      a.href = href;
      a.textContent = text;
      td.appendChild(a);
    } else td.textContent = text;
    return td;
  }
  // "just now", "2 minutes ago" in the reader's locale (admin.js), the local date and time in the tooltip.
  const LOCAL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  const ago = (ms) =>
    window.hearthAgo ? window.hearthAgo(Math.max(0, (Date.now() - ms) / 1000)) : new Date(ms).toLocaleTimeString();
  function when(ts) {
    const td = document.createElement('td');
    td.dataset.label = 'When';
    const t = document.createElement('time');
    t.className = 'live';
    t.dateTime = new Date(ts * 1000).toISOString();
    t.title = LOCAL.format(new Date(ts * 1000));
    t.textContent = ago(ts * 1000);
    td.appendChild(t);
    return td;
  }
  function init() {
    const body = document.getElementById('stream-rows');
    const status = document.getElementById('stream-status');
    if (!body || !window.EventSource) return;
    const es = new EventSource(body.dataset.src);
    es.addEventListener('open', () => {
      status.textContent = 'Live: new readings appear at the top.';
    });
    es.addEventListener('error', () => {
      status.textContent = 'Connection lost; retrying…';
    });
    es.addEventListener('dropped', (ev) => {
      status.textContent = 'Live (busy: ' + ev.data + ' readings skipped in the last moment).';
    });
    es.addEventListener('reading', (ev) => {
      const r = JSON.parse(ev.data);
      const empty = document.getElementById('stream-empty');
      if (empty) empty.remove();
      const tr = document.createElement('tr');
      const value = show(r.value) + (r.unit ? ' ' + r.unit : '');
      tr.append(
        when(r.ts),
        cell('Entity', r.entity_name, '/admin/entity/' + encodeURIComponent(r.entity_name)),
        cell('Metric', r.metric),
        cell('Value', value),
        cell('Source', r.source),
      );
      tr.className = 'new';
      tr.dataset.ts = String(r.ts);
      // Newest first by reading time: a reading taken earlier (a backfill) goes below newer ones.
      let at = body.firstElementChild;
      while (at && Number(at.dataset.ts) > r.ts) at = at.nextElementSibling;
      body.insertBefore(tr, at);
      while (body.rows.length > MAX_ROWS) body.deleteRow(-1);
    });
    const ages = setInterval(
      () =>
        body.querySelectorAll('time.live').forEach((t) => {
          t.textContent = ago(Date.parse(t.dateTime));
        }),
      10000,
    );
    window.addEventListener('pagehide', () => {
      es.close();
      clearInterval(ages);
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
