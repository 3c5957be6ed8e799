// One uPlot chart per numeric metric on the entity page; data from the hub's series.json.
'use strict';
(function () {
  const charts = [];
  function draw(el, data) {
    const pts = data.points || [];
    if (!pts.length) { el.textContent = 'No points at this granularity yet.'; return; }
    const raw = data.granularity === 'raw';
    const x = pts.map((p) => (raw ? p.ts : p.bucket_ts));
    const series = [{}];
    const cols = [x];
    if (raw) {
      cols.push(pts.map((p) => (typeof p.value === 'number' ? p.value : null)));
      series.push({ label: data.metric + (data.unit ? ' (' + data.unit + ')' : ''), stroke: '#8a3b12', width: 2 });
    } else {
      cols.push(pts.map((p) => p.avg), pts.map((p) => p.min), pts.map((p) => p.max));
      series.push({ label: 'avg', stroke: '#8a3b12', width: 2 }, { label: 'min', stroke: '#1f6fb2' }, { label: 'max', stroke: '#b23a48' });
    }
    el.textContent = '';
    const plot = new uPlot({ width: Math.max(200, el.clientWidth), height: 200, series, axes: [{}, { size: 50 }], legend: { live: false } }, cols, el);
    charts.push({ el, plot });
  }
  function load(el) {
    fetch(el.dataset.src, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((data) => draw(el, data))
      .catch((e) => { el.textContent = 'Could not load the chart (' + e.message + ').'; });
  }
  function init() {
    if (typeof uPlot === 'undefined') return;
    document.querySelectorAll('.chart[data-src]').forEach(load);
    let t;
    window.addEventListener('resize', () => {
      clearTimeout(t);
      t = setTimeout(() => charts.forEach((c) => c.plot.setSize({ width: Math.max(200, c.el.clientWidth), height: 200 })), 150);
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
