/** Tier 1.75 routes (working memory): the seed's paths and field names (SPEC §6). */
import type { WorkingService } from '../../tiers/working/working.service.js';
import * as W from '../../tiers/working/working.schemas.js';
import { routes } from '../route.js';

/**
 * Typed structurally so it compiles against `Services` or a test's own object. `/wm/list` is a
 * static route, so Fastify matches it before the parametric `/wm/:task_id`.
 */
export const workingRoutes = (s: { working: WorkingService }) =>
  routes('working', (r) => {
    r.post(
      '/wm/open',
      W.WmOpenInput,
      (b) => s.working.wmOpen(b, 'http'),
      'Open a task scratchpad (optional TTL and entity)',
    );
    r.post('/wm/set', W.WmSetInput, (b) => s.working.wmSet(b, 'http'), 'Set a key/value slot in an open task');
    r.post('/wm/get', W.WmGetInput, (b) => s.working.wmGet(b), 'One slot by key, or all slots with task metadata');
    r.get(
      '/wm/list',
      W.WmListInput,
      (q) => s.working.wmList(q),
      'Tasks by status (open/closed/expired/all) and entity',
    );
    // The Router validates only the path segment here, so just task_id is passed on.
    r.get(
      '/wm/:task_id',
      W.WmGetInput.pick({ task_id: true }),
      (q) => s.working.wmGet({ task_id: q.task_id }),
      'All slots and metadata of a task',
    );
    r.post(
      '/wm/close',
      W.WmCloseInput,
      (b) => s.working.wmClose(b, 'http'),
      'Close a task; promote=true saves the slots as one memory',
    );
  });
