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
  toast.timer = setTimeout(() => {
    el.hidden = true;
  }, 8000);
}
document.addEventListener('htmx:responseError', (ev) => toast(explain(ev.detail && ev.detail.xhr)));
document.addEventListener('htmx:sendError', () => toast(explain(null)));
// After an in-place forget the hub says how many memories remain (HX-Trigger).
document.addEventListener('hearth:memories', (ev) => {
  const el = document.getElementById('memory-count');
  if (el && ev.detail && typeof ev.detail.count === 'number') el.textContent = String(ev.detail.count);
});

// The phone menu: the button opens and closes the nav (without JavaScript it is a link to #nav, which
// CSS opens with :target). "More" closes when a tap lands elsewhere.
function initMenu() {
  const top = document.querySelector('header.top');
  const button = top && top.querySelector('.menu-button');
  if (!button) return;
  const set = (open) => {
    top.classList.toggle('open', open);
    button.setAttribute('aria-expanded', String(open));
  };
  button.addEventListener('click', (ev) => {
    ev.preventDefault();
    set(!top.classList.contains('open'));
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape') {
      set(false);
      document.querySelectorAll('details.more[open]').forEach((d) => {
        d.open = false;
      });
    }
  });
  document.addEventListener('click', (ev) => {
    document.querySelectorAll('details.more[open]').forEach((d) => {
      if (!d.contains(ev.target)) d.open = false;
    });
  });
}

// Times in the reader's locale and time zone (the page says UTC; the tooltip keeps it), ages in words
// of the same locale ("3 hours ago", "il y a 3 heures").
const DATE_TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const RELATIVE = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const STEPS = [
  [31536000, 'year'],
  [2592000, 'month'],
  [604800, 'week'],
  [86400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
];
function ago(seconds) {
  for (const [size, unit] of STEPS) if (seconds >= size) return RELATIVE.format(-Math.floor(seconds / size), unit);
  return RELATIVE.format(-Math.max(1, Math.round(seconds)), 'second'); // "5 seconds ago": a reading is never "now"
}
function localTimes(root) {
  (root || document).querySelectorAll('time[datetime]').forEach((t) => {
    const d = new Date(t.getAttribute('datetime'));
    if (Number.isNaN(d.getTime())) return;
    t.textContent = DATE_TIME.format(d);
    const age = t.nextElementSibling;
    if (age && age.classList.contains('age')) age.textContent = ago(Math.max(0, (Date.now() - d.getTime()) / 1000));
  });
}
window.hearthAgo = ago; // the live readings use it too (stream.js)
function initPage() {
  initMenu();
  localTimes(document);
}
document.addEventListener('htmx:afterSwap', (ev) => localTimes(ev.target));
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', initPage);
else initPage();
