// Hearth admin: small progressive enhancement on top of htmx (everything works without it).
'use strict';
// What a failed in-place action (confirm, forget) says: the hub's own sentence when it sent one
// (text/plain), else a plain one by status — never a status code or JSON.
const PLAIN = {
  401: 'Your login has ended. Reload the page to log in again; nothing was changed.',
  403: 'This page is out of date. Reload it and try again; nothing was changed.',
  404: 'That is no longer there (forgotten or replaced meanwhile). Reload the page to see what is current.',
};
function explain(xhr) {
  if (!xhr || !xhr.status) return 'The hub did not answer (is it running?). Try again in a moment.';
  const type = xhr.getResponseHeader('content-type') || '';
  if (/^text\/plain/.test(type) && xhr.responseText) return xhr.responseText.slice(0, 300);
  return PLAIN[xhr.status] || 'That did not work. Reload the page and try again.';
}
function toast(text) {
  let el = document.getElementById('toast');
  if (!el) {
    el = document.createElement('div');
    el.id = 'toast';
    el.setAttribute('role', 'alert');
    document.body.appendChild(el);
  }
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 8000);
}
document.addEventListener('htmx:responseError', (ev) => toast(explain(ev.detail && ev.detail.xhr)));
document.addEventListener('htmx:sendError', () => toast(explain(null)));
// After an in-place forget the hub says how many memories remain (HX-Trigger).
document.addEventListener('hearth:memories', (ev) => {
  const el = document.getElementById('memory-count');
  if (el && ev.detail && typeof ev.detail.count === 'number') el.textContent = String(ev.detail.count);
});
