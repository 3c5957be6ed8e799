/**
 * Tier 4 — prospective memory (SPEC §5 "Intentions"): `intend` stores trigger → action,
 * `check_intentions(text)` fires the active, unexpired intentions whose trigger is relevant to the
 * text, `dismiss_intention`, `list_intentions`. Every mutation is audited; each firing is reported
 * through `onTriggered` (wired to the `intention_triggered` event, published on MQTT).
 *
 * Candidates are the live intentions the keyword index (FTS5 over normalised trigger terms) finds,
 * plus every live one when an embedder answers; which of them fire, and the tuned constants, are
 * relevance.ts. The stored rows and their view are intention-rows.ts, their SQL prospective.repo.ts.
 * A `once` intention deactivates in the same transaction that counts the firing, guarded by
 * `active = 1`, so two concurrent checks cannot both fire it.
 */
import type { EmbedOptions, Embedder } from '../../ai/types.js';
import type { WordNet } from '../../ai/wordnet.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { invalid, notFound } from '../../lib/errors.js';
import { toEpoch } from '../../lib/schema.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import type { RelationsService } from '../memory/relations.service.js';
import { ftsMatch } from '../memory/text-match.js';
import { type Row, toBlob, view } from './intention-rows.js';
import { createProspectiveRepo } from './prospective.repo.js';
import {
  type CheckIntentionsInput,
  type DismissIntentionInput,
  flag,
  type IntendInput,
  type ListIntentionsInput,
  type TriggeredIntention,
} from './prospective.schemas.js';
import { createRelevance, DEFAULT_INTENTION_TUNING, type IntentionTuning } from './relevance.js';
import { namesOf, otherNames, replaceRoles, resolveRoles, triggerRoles } from './roles.js';
import { capitalisedNames, eventText, triggerEventText, triggerTerms } from './trigger-match.js';

export { DEFAULT_INTENTION_TUNING, type IntentionTuning } from './relevance.js';

export interface ProspectiveDeps {
  db: Db;
  clock: Clock;
  entities: EntitiesRepo;
  audit: AuditRepo;
  /** Optional: without it (or while it fails) matching is keyword-only and says so in `warnings`. */
  embedder?: Embedder | null;
  /** Called once per firing, after commit (wire to events `intention_triggered`). Errors are the listener's. */
  onTriggered?: (t: TriggeredIntention) => void;
  tuning?: IntentionTuning;
  /** WordNet: a trigger's words said in other words ("the washer finished" for "the washing machine finishes") count as keyword evidence. */
  wordnet?: WordNet;
  /** The household's relations: "my wife", "Chidi's dad" in a text or a trigger meet the person's name (roles.ts). */
  relations?: Pick<RelationsService, 'list'>;
}

export function createProspectiveService(deps: ProspectiveDeps) {
  const { db, clock, entities, audit } = deps;
  const embedder = deps.embedder ?? null;
  const relevant = createRelevance(deps.tuning ?? DEFAULT_INTENTION_TUNING, deps.wordnet);
  /** Stored trigger vectors are of the event text (trigger-match.ts `eventText`); older ones are re-made. */
  const vecModel = embedder ? `${embedder.fingerprint}#event` : null;

  const repo = createProspectiveRepo(db);
  const personNames = repo.personNames;

  /** One vector per text, or null with a warning: an embedder outage never blocks intentions. */
  async function embed(texts: string[], warnings: string[], opts?: EmbedOptions): Promise<Float32Array[] | null> {
    if (!embedder || !texts.length) return null;
    try {
      return await embedder.embed(texts, opts);
    } catch (e) {
      warnings.push(
        `vector matching unavailable: embedder ${embedder.provider} failed (${(e as Error).message}); keyword matching only`,
      );
      return null;
    }
  }

  return {
    /** The tier's repository, for its import writer (services.ts), as episodic's; doors never reach a repo (lint-deps). */
    repo,
    /** Stores trigger → action for an entity (created on first reference). */
    async intend(input: IntendInput, actor: Actor = 'system') {
      const now = clock.now();
      const expires = toEpoch(input.expires_ts) ?? null;
      if (expires !== null && expires <= now)
        throw invalid('expires_ts: is in the past; the intention could never fire');
      const terms = triggerTerms(input.trigger_text);
      if (!terms.length) throw invalid('trigger_text: has no words to match on (only stopwords or punctuation)');
      const warnings: string[] = [];
      const [vec] = embedder
        ? ((await embed([triggerEventText(input.trigger_text, personNames())], warnings, { write: true })) ?? [])
        : [];
      const id = db.transaction(() => {
        const entity = entities.ensure(input.entity_name, input.entity_type ?? 'person');
        const id = repo.insert(
          {
            entity_id: entity.id,
            trigger_text: input.trigger_text,
            action_text: input.action_text,
            once: !!input.once,
            expires_at: expires,
            created: now,
          },
          vec ? toBlob(vec) : null,
          vec ? vecModel : null,
        );
        repo.indexTerms(id, terms);
        audit.record(actor, 'intention.add', id, null, {
          entity_name: entity.name,
          trigger_text: input.trigger_text,
          action_text: input.action_text,
          once: input.once,
          expires_at: expires,
        });
        return id;
      })();
      const when = expires === null ? '' : ` (until ${new Date(expires * 1000).toISOString()})`;
      return {
        result: `Will ${input.once ? 'remind once' : 'remind each time'} ${input.trigger_text}: ${input.action_text}${when}`,
        id,
        warnings,
      };
    },

    /**
     * Fires the live intentions the text is relevant to; `once` ones deactivate. `fire: false` only
     * says which would fire (the ask door's "what should I remember when I get home?"): nothing changes.
     */
    async check(input: CheckIntentionsInput, actor: Actor = 'system', opts: { fire?: boolean } = {}) {
      const warnings: string[] = [];
      let entity: number | null = null;
      let speaker: string | undefined;
      if (input.entity_name !== undefined) {
        const e = entities.find(input.entity_name);
        if (!e)
          return {
            result: `No intentions for ${input.entity_name}.`,
            triggered: [] as TriggeredIntention[],
            warnings: [`no entity named "${input.entity_name}"`],
          };
        entity = e.id;
        speaker = e.name;
      }
      // People the text names by role ("my wife"): their names count as said.
      const roleDeps = deps.relations ? { entities, relations: deps.relations } : null;
      const roles = roleDeps ? resolveRoles(input.text, speaker, roleDeps) : [];
      const names = personNames();
      const said = new Set(triggerTerms(input.text));
      // ...and so do the other names of a person the text names ("Grandad" → Samuel, "Grandad Samuel").
      const textTerms = new Set([
        ...said,
        ...(roleDeps ? namesOf(roles, roleDeps) : []).flatMap(triggerTerms),
        ...otherNames(said, names, entities).flatMap(triggerTerms),
      ]);
      const params = { now: clock.now(), entity };
      const candidates = new Map<number, Row>();
      const match = ftsMatch([...textTerms]);
      if (match) for (const r of repo.keyword(match, params)) candidates.set(r.id, r);

      // One embedder call: the text, plus the live triggers whose vector is missing or from another
      // model (re-made lazily here, so a model change or an outage at `intend` heals itself).
      let textVec: Float32Array | null = null;
      if (embedder) {
        const all = repo.live(params);
        const stale = all.filter((r) => r.embed_model !== vecModel || !r.embedding);
        const masked = new Set([...names, ...all.flatMap((r) => capitalisedNames(r.trigger_text))]);
        const vecs = await embed(
          [
            ...stale.map((r) => triggerEventText(r.trigger_text, names)),
            eventText(
              replaceRoles(input.text, roles, () => 'someone'),
              masked,
            ),
          ],
          warnings,
        );
        if (vecs) {
          db.transaction(() => stale.forEach((r, i) => repo.setVector(r.id, toBlob(vecs[i]), vecModel)))();
          stale.forEach((r, i) => Object.assign(r, { embedding: toBlob(vecs[i]), embed_model: vecModel }));
          textVec = vecs[stale.length];
          for (const r of all) if (!candidates.has(r.id)) candidates.set(r.id, r);
        }
      } else warnings.push('no embedder configured: keyword matching only');

      // A trigger that names its person by role ("when my wife gets home") is judged as naming them.
      const rows = [...candidates.values()].map((r) => (roleDeps ? triggerRoles(r, roleDeps) : r));
      const original = new Map([...candidates.values()].map((r) => [r.id, r]));
      const hits = relevant(rows, {
        text: input.text,
        terms: textTerms,
        names,
        vector: textVec,
        vecModel,
        provider: embedder ? embedder.provider : null,
      });

      const now = clock.now();
      if (opts.fire === false) {
        const would = hits.map(({ row: _, ...hit }) => ({ ...hit, trigger_text: original.get(hit.id)!.trigger_text }));
        return { result: `${would.length} intentions match.`, triggered: would, warnings };
      }
      const triggered = db.transaction(() =>
        hits
          .filter((h) => repo.fire(h.id, now))
          .map(({ row, ...hit }) => {
            const t = { ...hit, trigger_text: original.get(hit.id)!.trigger_text };
            audit.record(
              actor,
              'intention.fire',
              t.id,
              { active: row.active, fired_count: row.fired_count },
              {
                fired_count: row.fired_count + 1,
                last_fired: now,
                active: row.once ? 0 : 1,
                text: input.text,
                score: t.score,
              },
            );
            return t;
          }),
      )();
      for (const t of triggered) deps.onTriggered?.(t);
      const result = triggered.length
        ? triggered.map((t) => `- ${t.entity_name}: ${t.action_text} (trigger: ${t.trigger_text})`).join('\n')
        : 'No intentions triggered.';
      return { result, triggered, warnings };
    },

    /** Deactivates an intention (kept for the record). */
    dismiss(input: DismissIntentionInput, actor: Actor = 'system') {
      const id = (input.intention_id ?? input.id)!;
      return db.transaction(() => {
        const r = repo.get(id);
        if (!r) throw notFound(`intention_id: no intention with id ${id}`);
        if (!r.active) return { result: `Intention ${id} was already inactive.`, id, dismissed: false };
        repo.deactivate(id);
        audit.record(actor, 'intention.dismiss', id, { active: 1 }, { active: 0 });
        return { result: `Dismissed intention ${id}: ${r.trigger_text} → ${r.action_text}`, id, dismissed: true };
      })();
    },

    /** Intentions of an entity (or everyone), newest first; `active_only` keeps those that can still fire. */
    list(input: ListIntentionsInput) {
      const now = clock.now();
      let entity: number | null = null;
      if (input.entity_name !== undefined) entity = entities.get(input.entity_name).id;
      const activeOnly = flag(input.active_only);
      const rows = repo.list(activeOnly, { now, entity });
      const intentions = rows.map((r) => view(r, now));
      const result = intentions.length
        ? intentions
            .map(
              (i) =>
                `- [${i.id}] ${i.entity_name}: ${i.trigger_text} → ${i.action_text}${i.status === 'active' ? '' : ` (${i.status})`}`,
            )
            .join('\n')
        : `No ${activeOnly ? 'active ' : ''}intentions${input.entity_name ? ` for ${input.entity_name}` : ''}.`;
      return { result, intentions };
    },
  };
}
export type ProspectiveService = ReturnType<typeof createProspectiveService>;
