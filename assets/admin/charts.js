// One uPlot chart per numeric metric on the entity page; data from the hub's series.json.
'use strict';
(function () {
  const charts = [];
  window.hearthCharts = charts; // for tests and the curious: [{ el, plot }]
  // Half the time span shown around a single point, per granularity. uPlot would widen one point
  // to [t, t + 86400 / ms] — 1,000 days for times in seconds — with the point at the left edge.
  const HALF_SPAN = { raw: 3600, hour: 6 * 3600, day: 3 * 86400, week: 3 * 7 * 86400 };
  function xRange(g, xs) {
    const half = HALF_SPAN[g] || 3600;
    return (u, min, max) => (xs.length === 1 || min === max ? [xs[0] - half, xs[0] + half] : [min, max]);
  }
  // A tenth of the spread (or of the value) either side; never below 0 for data that is never
  // negative, and percent-like units stop at 100 unless the data goes past it.
  function yRange(unit) {
    const percent = /%/.test(unit || '');
    return (u, min, max) => {
      if (min === null || max === null) return [0, percent ? 100 : 1];
      const pad = min === max ? Math.max(1, Math.abs(max) * 0.1) : (max - min) * 0.1;
      let lo = min - pad;
      let hi = max + pad;
      if (min >= 0 && lo < 0) lo = 0;
      if (percent && max <= 100 && hi > 100) hi = 100;
      return [lo, hi];
    };
  }
  // The time axis and the legend in the reader's locale and time zone (Intl), not uPlot's US-style
  // month/day: a day changes under its first time label.
  const DAY = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
  const MONTH = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short' });
  const TIME = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });
  const FULL = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  function xValues(u, splits, axisIdx, space, incr) {
    let lastDay = '';
    return splits.map((s) => {
      const d = new Date(s * 1000);
      if (incr >= 28 * 86400) return MONTH.format(d);
      if (incr >= 86400) return DAY.format(d);
      const day = DAY.format(d);
      const label = day === lastDay ? TIME.format(d) : TIME.format(d) + '\n' + day;
      lastDay = day;
      return label;
    });
  }
  function draw(el, data) {
    const pts = data.points || [];
    if (!pts.length) {
      el.textContent = 'No points at this granularity yet.';
      return;
    }
    const raw = data.granularity === 'raw';
    const x = pts.map((p) => (raw ? p.ts : p.bucket_ts));
    const series = [{ value: (u, v) => (v === null || v === undefined ? '' : FULL.format(new Date(v * 1000))) }];
    const cols = [x];
    if (raw) {
      cols.push(pts.map((p) => (typeof p.value === 'number' ? p.value : null)));
      series.push({ label: data.metric + (data.unit ? ' (' + data.unit + ')' : ''), stroke: '#8a3b12', width: 2 });
    } else {
      cols.push(
        pts.map((p) => p.avg),
        pts.map((p) => p.min),
        pts.map((p) => p.max),
      );
      series.push(
        { label: 'avg', stroke: '#8a3b12', width: 2 },
        { label: 'min', stroke: '#1f6fb2' },
        { label: 'max', stroke: '#b23a48' },
      );
    }
    el.textContent = '';
    const scales = { x: { time: true, range: xRange(data.granularity, x) }, y: { range: yRange(data.unit) } };
    const plot = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: 200,
        series,
        scales,
        axes: [{ values: xValues, size: 50, space: 70 }, { size: 50 }],
        legend: { live: false },
      },
      cols,
      el,
    );
    charts.push({ el, plot });
  }
  function load(el) {
    fetch(el.dataset.src, { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((data) => draw(el, data))
      .catch((e) => {
        el.textContent = 'Could not load the chart (' + e.message + ').';
      });
  }
  function init() {
    if (typeof uPlot === 'undefined') return;
    document.querySelectorAll('.chart[data-src]').forEach(load);
    let t;
    window.addEventListener('resize', () => {
      clearTimeout(t);
      t = setTimeout(
        () => charts.forEach((c) => c.plot.setSize({ width: Math.max(200, c.el.clientWidth), height: 200 })),
        150,
      );
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
