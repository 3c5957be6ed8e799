// Hearth admin: small progressive enhancement on top of htmx (everything works without it).
'use strict';
document.addEventListener('htmx:responseError', (ev) => {
  let toast = document.getElementById('toast');
  if (!toast) {
    toast = document.createElement('div');
    toast.id = 'toast';
    toast.setAttribute('role', 'alert');
    document.body.appendChild(toast);
  }
  const xhr = ev.detail && ev.detail.xhr;
  toast.textContent = 'Could not do that: ' + (xhr ? xhr.status + ' ' + (xhr.responseText || '').slice(0, 300) : 'network error');
  toast.hidden = false;
  setTimeout(() => { toast.hidden = true; }, 6000);
});
