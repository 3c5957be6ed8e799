/** Entity management (manage.service.ts): merge (with a preview), rename, change type, delete (with a preview), end a relation. */
import type { Services } from '../../services.js';
import * as E from '../../tiers/entities/manage.schemas.js';
import { routes } from '../route.js';

export const entitiesRoutes = (s: Services) =>
  routes('entities', (r) => {
    r.post(
      '/entities/merge',
      E.MergeEntitiesInput,
      (b) => s.manage.merge(b, 'http'),
      'Merge one entity into another (dry_run: what would move); the merged name stays as an alias',
    );
    r.post(
      '/entities/rename',
      E.RenameEntityInput,
      (b) => s.manage.rename(b, 'http'),
      'Rename an entity (everything stays attached); 409 when the name is taken',
    );
    r.post(
      '/entities/set_type',
      E.SetEntityTypeInput,
      (b) => s.manage.setType(b, 'http'),
      'Set what an entity is (person, pet, room, device, …)',
    );
    r.post(
      '/entities/delete',
      E.DeleteEntityInput,
      (b) => s.manage.delete(b, 'http'),
      'Delete an entity with everything that belongs to it (dry_run: what would go)',
    );
    r.post(
      '/entities/end_relation',
      E.EndRelationInput,
      (b) => s.manage.endRelation(b, 'http'),
      'End one current relation by its id (history kept)',
    );
  });
