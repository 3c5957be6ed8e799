/** GET /admin/prune: what retention would delete now (a dry run); POST deletes it. */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../services.js';
import { html, seg } from '../html.js';
import { csrfField, page, table, when } from '../layout.js';
import { plural } from '../../../lib/plural.js';

type PruneResult = Awaited<ReturnType<Services['prune']>>;

function bySeries(s: Services, r: PruneResult) {
  return table(
    ['Entity', 'Metric', r.dry_run ? 'Would delete' : 'Deleted', 'Kept (not rolled up yet)'],
    r.by_series.map((x) => {
      const name = s.entities.byId(x.entity_id)?.name ?? `#${x.entity_id}`;
      return html`<tr><td data-label="Entity"><a href="/admin/entity/${seg(name)}">${name}</a></td><td data-label="Metric">${x.metric}</td><td data-label="${r.dry_run ? 'Would delete' : 'Deleted'}">${x.deleted}</td><td data-label="Kept">${x.kept_unrolled}</td></tr>`;
    }),
    'Nothing is past retention.',
  );
}

export function prunePage(req: FastifyRequest, s: Services, r: PruneResult) {
  const now = s.clock.now();
  const days = s.config.timeseries.retention_days;
  const body = html`
<p>Raw readings older than ${plural(days, 'day')} (before ${when(r.cutoff_ts, now)}) are deleted once they are rolled up; hour, day and week rollups are kept.</p>
<p class="result" id="prune-result">${r.result}</p>
${bySeries(s, r)}
${r.dry_run && r.deleted ? html`<form method="post" action="/admin/prune" class="stack">${csrfField(req)}<button type="submit" class="danger" data-action="prune">Delete ${r.deleted} readings now</button></form>` : ''}
${r.dry_run ? '' : html`<p><a class="button" href="/admin/prune">Preview again</a></p>`}`;
  return page(
    req,
    { title: r.dry_run ? 'Clean up old readings' : 'Old readings cleaned up', active: 'Clean up old readings' },
    body,
  );
}
