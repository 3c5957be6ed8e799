/**
 * GET /admin/markdown: download everything as Markdown notes (one .md per entity, zipped), and read
 * notes back (upload .md files or a zip, or paste one note); POST /admin/markdown/import shows what the
 * sync did and its conflicts (lines not applied because the hub changed since the export).
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../services.js';
import { plural } from '../../../lib/plural.js';
import { html, seg, type Html } from '../html.js';
import { csrfField, page, table } from '../layout.js';
import { TIER_STYLES } from '../tier-words.js';

export type ImportReport = Awaited<ReturnType<Services['markdown']['importFiles']>>;
export interface MarkdownFormState {
  name?: string;
  content?: string;
  delete_missing?: boolean;
  errors: Record<string, string>;
}

const REASON: Record<string, { word: string; title: string }> = {
  stale: {
    word: 'changed in the hub since',
    title: 'stale: the hub has a newer version than the note was exported from',
  },
  forgotten: { word: 'forgotten in the hub since', title: 'forgotten: the hub forgot or ended it after the export' },
  duplicate_file: { word: 'two notes for one entity', title: 'duplicate_file: more than one note names this entity' },
};

const entityLink = (name: string) => html`<a href="/admin/entity/${seg(name)}">${name}</a>`;

function importForm(req: FastifyRequest, st?: MarkdownFormState): Html {
  const e = st?.errors ?? {};
  const err = (k: string) => (e[k] ? html`<span class="field-error" role="alert">${e[k]}</span>` : '');
  return html`<form method="post" action="/admin/markdown/import" class="stack md-import">${csrfField(req)}
<label>Notes to read back (.md files or the exported .zip) <input type="file" id="md-files" accept=".md,.zip,text/markdown,application/zip" multiple></label>
<input type="hidden" name="files" id="md-files-json" value="">
<input type="hidden" name="zip" id="md-zip" value="">
<p class="muted" id="md-picked">Choosing files needs JavaScript; without it, paste one note below.</p>
${err('files')}
<label>Or paste a note: its name <input type="text" name="name" maxlength="500" placeholder="e.g. Brian" value="${st?.name ?? ''}"></label>
${err('name')}
<label>Text <textarea name="content" rows="8" placeholder="# Brian&#10;## Memories&#10;- Brian likes his coffee black">${st?.content ?? ''}</textarea></label>
${err('content')}
<label class="check"><input type="checkbox" name="delete_missing" value="1"${st?.delete_missing ? html` checked` : ''}>
 also forget the facts an imported note no longer lists (otherwise they are only listed)</label>
<button type="submit" data-action="import">Import</button>
</form>`;
}

export function markdownPage(req: FastifyRequest, s: Services, st?: MarkdownFormState): Html {
  const n = s.status.snapshot().entities;
  const body = html`
<section><h2>Export</h2>
<p>Every entity as one Markdown note (Obsidian-compatible): its facts, relations and where each came from — ${plural(n, 'note')}.</p>
<p><a class="button" href="/admin/markdown/hearth-markdown.zip" download>Download all notes (.zip)</a></p>
</section>
<section><h2>Import</h2>
<p class="muted">Edited lines replace the fact they name, new lines are remembered, and a line about something the hub
changed since the export is not applied but listed as a conflict.</p>
${importForm(req, st)}
</section>`;
  return page(
    req,
    { title: 'Markdown notes', active: 'Markdown', styles: TIER_STYLES, scripts: ['/admin/tier-assets/markdown.js'] },
    body,
  );
}

export function importResultPage(req: FastifyRequest, r: ImportReport, deleteMissing: boolean): Html {
  const line = (c: { file: string; line?: number }) => `${c.file}${c.line ? `, line ${c.line}` : ''}`;
  const counts: [string, number, string][] = [
    ['notes read', r.files, 'files'],
    ['entities added', r.entities_created, 'entities_created'],
    ['entities updated', r.entities_updated, 'entities_updated'],
    ['facts added', r.added, 'added'],
    ['facts replaced by a new version', r.superseded, 'superseded'],
    ['facts already known (confirmed)', r.reinforced, 'reinforced'],
    ['facts kept as disputed', r.contested, 'contested'],
    ['facts unchanged', r.unchanged, 'unchanged'],
    ['relations added', r.relations_added, 'relations_added'],
  ];
  if (deleteMissing)
    counts.push(
      ['facts forgotten (not in the notes)', r.deleted, 'deleted'],
      ['relations ended', r.relations_ended, 'relations_ended'],
    );
  const body = html`
<p class="result" id="import-result">${r.conflicts.length ? plural(r.conflicts.length, 'conflict') : 'No conflicts'};
${plural(r.added + r.superseded, 'fact')} added or changed.</p>
<dl class="counts">${counts.filter(([, v], i) => v || i === 0).map(([label, v, key]) => html`<dt title="${key}">${label}</dt><dd>${v}</dd>`)}</dl>
<h2>Conflicts (not applied)</h2>
${table(
  ['Note', 'About', 'Why', 'What to do'],
  r.conflicts.map((c) => {
    const w = REASON[c.reason] ?? { word: c.reason, title: c.reason };
    return html`<tr class="conflict"><td data-label="Note">${line(c)}</td>
<td data-label="About">${entityLink(c.entity_name)}</td>
<td data-label="Why"><span title="${w.title}">${w.word}</span></td>
<td class="fact">${c.message}</td></tr>`;
  }),
  'None: everything in the notes could be applied.',
)}
${
  r.errors.length
    ? html`<h2>Lines skipped</h2>${table(
        ['Note', 'Problem'],
        r.errors.map(
          (x) => html`<tr><td data-label="Note">${line(x)}</td>
<td class="fact">${x.message}</td></tr>`,
        ),
        '',
      )}`
    : ''
}
${
  r.missing.length
    ? html`<h2>In the hub but not in the notes${deleteMissing ? ' (forgotten)' : ' (kept)'}</h2>
${table(
  ['About', 'Fact'],
  r.missing.map(
    (m) => html`<tr><td data-label="About">${entityLink(m.entity_name)}</td><td class="fact">${m.fact}</td></tr>`,
  ),
  '',
)}`
    : ''
}
${
  r.relations_missing.length
    ? html`<h2>Relations not in the notes${deleteMissing ? ' (ended)' : ' (kept)'}</h2>
<ul>${r.relations_missing.map((x) => html`<li>${entityLink(x.entity_a)} ${x.rel_type.replaceAll('_', ' ')} ${entityLink(x.entity_b)}</li>`)}</ul>`
    : ''
}
<p><a class="button" href="/admin/markdown">Import more</a></p>`;
  return page(req, { title: 'Import: done', active: 'Markdown', styles: TIER_STYLES }, body);
}
