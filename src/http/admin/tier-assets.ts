/**
 * The tier pages' own small stylesheet and the Markdown page's file picker, served by routes-tiers.ts
 * (CSP `script-src 'self'`: no inline script). The picker reads the chosen files in the browser and
 * puts them into the form's hidden fields (.md as JSON {path, content}, a .zip as base64), since the
 * admin forms are URL-encoded; without JavaScript a note can still be pasted.
 */
export const TIERS_CSS = `
article.task, article.voice, article.pattern { background: var(--card, #fff); border: 1px solid var(--line, #ddd); border-radius: .4rem; padding: .25rem .75rem .5rem; margin: .75rem 0; overflow-wrap: anywhere; }
article.task h2, article.voice h2 { margin: .5rem 0 .25rem; font-size: 1.1rem; }
article.pattern p.fact { font-weight: 600; margin: .5rem 0 .25rem; }
dl.slots { display: grid; grid-template-columns: minmax(6rem, max-content) 1fr; gap: .2rem .75rem; margin: .25rem 0 .5rem; }
dl.slots dt { font-weight: 600; overflow-wrap: anywhere; }
dl.slots dd { margin: 0; overflow-wrap: anywhere; white-space: pre-wrap; }
td, .summary, .result, .flash { overflow-wrap: anywhere; }
dl.counts { display: grid; grid-template-columns: 1fr auto; gap: .2rem 1rem; max-width: 28rem; }
dl.counts dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
.md-import textarea { font-family: ui-monospace, monospace; }
.md-import input[type=file] { padding: .5rem; }
@media (max-width: 640px) { dl.slots { grid-template-columns: 1fr; } dl.slots dd { margin-bottom: .4rem; } }
`;

export const MARKDOWN_JS = `'use strict';
(function () {
  var input = document.getElementById('md-files');
  if (!input) return;
  var json = document.getElementById('md-files-json');
  var zip = document.getElementById('md-zip');
  var said = document.getElementById('md-picked');
  said.textContent = 'Choose .md notes, or the .zip Hearth exported.';
  function read(file, asText) {
    return new Promise(function (ok, fail) {
      var r = new FileReader();
      r.onload = function () { ok(r.result); };
      r.onerror = function () { fail(r.error); };
      if (asText) r.readAsText(file); else r.readAsDataURL(file);
    });
  }
  input.addEventListener('change', function () {
    var all = Array.prototype.slice.call(input.files || []);
    var notes = all.filter(function (f) { return /\\.md$/i.test(f.name); });
    var zips = all.filter(function (f) { return /\\.zip$/i.test(f.name); });
    json.value = '';
    zip.value = '';
    said.textContent = 'Reading ' + all.length + ' file(s)…';
    Promise.all(notes.map(function (f) { return read(f, true).then(function (t) { return { path: f.name, content: t }; }); }))
      .then(function (files) {
        json.value = files.length ? JSON.stringify(files) : '';
        return zips.length ? read(zips[0], false) : null;
      })
      .then(function (url) {
        if (url) zip.value = String(url).replace(/^data:[^,]*,/, '');
        var parts = [];
        if (notes.length) parts.push(notes.length + ' note' + (notes.length === 1 ? '' : 's'));
        if (zips.length) parts.push(zips[0].name);
        var skipped = all.length - notes.length - Math.min(zips.length, 1);
        said.textContent = parts.length ? 'Ready to import: ' + parts.join(' and ') + (skipped ? ' (' + skipped + ' other file(s) left out)' : '') + '.' : 'None of those is a .md note or a .zip.';
      })
      .catch(function () { said.textContent = 'Those files could not be read. Choose them again.'; });
  });
})();
`;
