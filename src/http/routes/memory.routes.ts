/** Tier 1 routes: the seed's paths and field names (SPEC §6). */
import { z } from 'zod';
import type { Services } from '../../services.js';
import * as M from '../../tiers/memory/memory.schemas.js';
import * as A from '../../tiers/entities/aliases.schemas.js';
import { routes } from '../route.js';

export const memoryRoutes = (s: Services) =>
  routes('memory', (r) => {
    r.post(
      '/remember',
      M.RememberInput,
      (b) => s.memory.remember(b, 'http'),
      'Store a fact about a person, room or device',
    );
    r.post('/recall', M.RecallInput, (b) => s.memory.recall(b), 'Search memories (vector, keyword or hybrid)');
    r.post('/get_context', M.GetContextInput, (b) => s.context.getContext(b), 'Relevance-filtered context snapshot');
    r.get('/profile/:entity_name', M.ProfileInput, (q) => s.context.getProfile(q), 'Everything known about one entity');
    r.post('/relate', M.RelateInput, (b) => s.relations.relate(b, 'http'), 'Create a directed relationship');
    r.post('/unrelate', M.UnrelateInput, (b) => s.relations.unrelate(b, 'http'), 'End a relationship (history kept)');
    r.post('/get_related', M.GetRelatedInput, (b) => s.relations.getRelated(b), 'Relationships of an entity');
    r.post(
      '/alias',
      A.AliasInput,
      (b) => s.aliases.add(b, 'http'),
      'Give an entity another name ("Mum", "person.anna"); 409 when it names another entity',
    );
    r.post(
      '/unalias',
      A.UnaliasInput,
      (b) => s.aliases.remove(b, 'http'),
      'Remove an alias (the entity keeps everything else)',
    );
    r.get(
      '/aliases/:entity_name',
      M.ProfileInput,
      (q) => s.aliases.list(q.entity_name),
      'The other names of an entity',
    );
    r.post(
      '/alias/homeassistant',
      A.HaNamesInput,
      (b) => s.aliases.fromHomeAssistant(b, 'http'),
      "Home Assistant person entities' friendly names as aliases (the HA poller)",
    );
    r.post('/forget', M.ForgetInput, (b) => s.memory.forget(b, 'http'), 'Delete a memory or a whole entity');
    r.get(
      '/fading',
      M.FadingInput,
      (q) => s.memory.fading(q),
      'Memories whose confidence has decayed below a threshold',
    );
    r.get(
      '/entities',
      z.strictObject({
        type: z.string().max(50).optional(),
        limit: z.coerce.number().int().min(1).max(1000).default(500),
        offset: z.coerce.number().int().min(0).default(0),
      }),
      (q) => {
        const entities = s.entities.list(q);
        return { result: entities.map((e) => `${e.name} (${e.type})`).join('\n') || 'No entities yet.', entities };
      },
      'List entities',
    );
  });
