/**
 * Tier 1 — semantic memory: remember (trust tiers, fact_key supersession, near-duplicate
 * reinforcement, contested facts), recall, forget, fading, re-embedding. SPEC §5.
 */
import type { Embedder } from '../../ai/types.js';
import type { WordNet } from '../../ai/wordnet.js';
import { createGroupCommit } from '../../db/group-commit.js';
import type { Db } from '../../db/open.js';
import type { VectorStore } from '../../db/vectors.js';
import type { Clock } from '../../lib/clock.js';
import { invalid, notFound } from '../../lib/errors.js';
import { toEpoch, trustLabel, trustLevel } from '../../lib/schema.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { effectiveConfidence, type DecayConfig } from './decay.js';
import { createMemoryRepo, type MemoryRow } from './memory.repo.js';
import type { FadingInput, ForgetInput, RecallInput, RememberInput } from './memory.schemas.js';
import { recall, type RecallOutcome, type RecallTuning } from './recall.js';
import { recallText } from './recall-text.js';
import { DUPLICATE_COSINE, DUPLICATE_JACCARD, ftsMatch, indexText, jaccard, sameClaims, terms } from './text-match.js';

export interface MemoryDeps {
  db: Db;
  clock: Clock;
  embedder: Embedder;
  vectors: VectorStore;
  entities: EntitiesRepo;
  audit: AuditRepo;
  config: DecayConfig & { trust_default_remember: number };
  /** Called after a memory is added (events on MQTT). Errors are the listener's. */
  /** Recall constants; defaults in recall.ts. */
  tuning?: RecallTuning;
  /** Query expansion for recall's keyword coverage (none: stems only). */
  wordnet?: WordNet;
  onEntityForgotten?: (name: string) => void;
  onAdded?: (m: { id: number; entity_name: string; fact: string; category: string; action: string }) => void;
}

export type RememberAction = 'added' | 'reinforced' | 'superseded' | 'contested';

export interface RememberResult {
  result: string;
  id: number;
  entity_id: number;
  action: RememberAction;
  /** id of the memory this one replaced (superseded), or that outranks it (contested) */
  superseded: number | null;
  warnings: string[];
}

/** Up to this many active facts of one entity and category, the duplicate check reads all their terms. */
const SCAN_KIND = 400;
/**
 * …and compares the vectors of the newest this many: a restatement is usually of something said
 * lately, and each compared fact costs a point lookup; older duplicates are still caught by their terms.
 */
const VECTOR_NEWEST = 100;

/** How long a recall's access bumps wait to be written with others. */
export const TOUCH_FLUSH_MS = 2000;

export function createMemoryService(deps: MemoryDeps) {
  const { db, clock, embedder, vectors, entities, audit, config } = deps;
  const repo = createMemoryRepo(db);
  const commits = createGroupCommit(db);
  // A recall's access bumps (last_accessed, access_count) are written a moment later, all of them in
  // one transaction, not one write and fsync per recall: reading stays a read (an SD card's wear, the
  // hybrid path's latency). At most TOUCH_FLUSH_MS of bumps are lost if the process is killed.
  const touched = new Map<number, { n: number; at: number }>();
  let touchTimer: NodeJS.Timeout | undefined;
  function flushTouches() {
    if (touchTimer) clearTimeout(touchTimer);
    touchTimer = undefined;
    if (!touched.size || !db.open) return;
    const bumps = new Map(touched);
    touched.clear();
    repo.touch(bumps);
  }

  /** Embeds, or returns null with a warning: a provider failure never loses a write (SPEC §4). */
  async function tryEmbed(text: string, warnings: string[]): Promise<Float32Array | null> {
    if (vectors.state !== 'ready') {
      warnings.push(`stored as pending: ${vectors.staleReason()}`);
      return null;
    }
    try {
      return (await embedder.embed([text], { write: true }))[0];
    } catch (e) {
      warnings.push(`embedder ${embedder.provider} failed (${(e as Error).message}); the memory is stored and will be embedded later`);
      return null;
    }
  }

  function storeVector(id: number, entityId: number, category: string, active: boolean, v: Float32Array | null) {
    if (!v) return;
    // A text with no content words embeds to zeros: nothing to find it by, so nothing to index.
    if (!v.some((x) => x !== 0) || vectors.put(id, entityId, category, active, v)) repo.markEmbedded(id);
  }

  /**
   * An active fact of the same entity and category that says the same thing, if any: cosine ≥
   * DUPLICATE_COSINE with one of the newest, or term Jaccard ≥ DUPLICATE_JACCARD with any (both on the
   * indexed terms, so an entity-name prefix counts on both sides), and the same numbers and polarity.
   */
  function findDuplicate(entityId: number, category: string, fact: string, factTerms: string[], v: Float32Array | null) {
    const similar = new Set<number>();
    // Only the entity's own active facts of this category can be duplicates: compare with those
    // (point lookups), not a KNN over the whole index (bench: remember 56/s → see README at 50k).
    const kind = repo.activeIdsOf(entityId, category, SCAN_KIND + 1);
    if (v) for (const h of vectors.similarTo(v, kind.slice(0, VECTOR_NEWEST)).slice(0, 5)) if (h.similarity >= DUPLICATE_COSINE) similar.add(h.memory_id);
    for (const [id, t] of keywordCandidates(entityId, category, factTerms, kind)) if (jaccard(t.split(' '), factTerms) >= DUPLICATE_JACCARD) similar.add(id);
    for (const m of repo.byIds([...similar], { entityId, category })) if (sameClaims(m.fact, fact)) return m;
    return undefined;
  }

  /** The facts (id → indexed terms) that could share ≥ DUPLICATE_JACCARD of their terms with ours; `kind` as above. */
  function keywordCandidates(entityId: number, category: string, factTerms: string[], kind: number[]): Map<number, string> {
    // Usually an entity has few facts of one kind: read all their terms by id (cheaper at 50k than
    // any FTS query, whose posting lists grow with the whole store).
    if (kind.length <= SCAN_KIND) return repo.termsOf(kind);
    // Many: a fact B with Jaccard ≥ J to ours (A) lacks at most (1 − J)/J of our terms
    // (|A∖B| ≤ |A∪B| − |A∩B| ≤ (1 − J)·|A∪B| ≤ (1 − J)/J·|A|), so it contains at least one of ANY
    // ⌊(1 − J)/J·|A|⌋ + 1 of them. Matching only the rarest ones finds every such fact, and FTS5 reads
    // short posting lists instead of ranking every memory that shares a common word.
    const { df } = repo.docFreq(factTerms);
    const need = Math.floor(((1 - DUPLICATE_JACCARD) / DUPLICATE_JACCARD) * factTerms.length + 1e-9) + 1;
    const rare = [...factTerms].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0)).slice(0, need);
    const match = ftsMatch(rare);
    return new Map(match ? repo.keyword(match, 50, { entityId, category }).map((r) => [r.id, r.terms] as const) : []);
  }

  return {
    repo,
    /** Writes pending access bumps now (the hub calls it before closing the database). */
    flushTouches,

    async remember(input: RememberInput, actor: Actor = 'system'): Promise<RememberResult> {
      const warnings: string[] = [];
      const now = clock.now();
      const trust = input.source_trust === undefined ? config.trust_default_remember : trustLevel(input.source_trust);
      const validFrom = toEpoch(input.valid_from) ?? now;
      const text = indexText(input.entity_name, input.fact);
      const factTerms = terms(text);
      const vector = await tryEmbed(text, warnings);

      // Concurrent remembers share one commit (db/group-commit.ts); each is its own savepoint.
      const outcome = await commits.run(() => {
        const entity = entities.ensure(input.entity_name, input.entity_type);
        const fields = {
          entity_id: entity.id,
          fact: input.fact,
          category: input.category,
          confidence: input.confidence,
          source: input.source,
          source_trust: trust,
          fact_key: input.fact_key ?? null,
          valid_from: validFrom,
        };
        const reinforce = (m: MemoryRow, key?: string) => {
          repo.reinforce(m.id, input.confidence, now);
          if (key) repo.adoptKey(m.id, key, now);
          audit.record(actor, 'memory.reinforce', m.id, { confidence: m.confidence, last_confirmed: m.last_confirmed, ...(key && { fact_key: null }) }, { confirmed: now, ...(key && { fact_key: key }) });
          return { id: m.id, entity_id: entity.id, action: 'reinforced' as const, superseded: null };
        };
        const add = (status: MemoryRow['status']) => {
          const id = repo.insert({ ...fields, status }, factTerms.join(' '), now);
          storeVector(id, entity.id, input.category, status === 'active', vector);
          return id;
        };

        let result: Omit<RememberResult, 'result' | 'warnings'>;
        const current = input.fact_key ? repo.activeByKey(entity.id, input.fact_key) : undefined;
        if (input.fact_key && current) {
          if (current.fact.trim().toLowerCase() === input.fact.trim().toLowerCase()) return reinforce(current);
          if (trust >= current.source_trust) {
            const id = add('active');
            repo.supersede(current.id, id, validFrom, now);
            vectors.setActive(current.id, false);
            result = { id, entity_id: entity.id, action: 'superseded', superseded: current.id };
          } else {
            const same = repo.contestedByKey(entity.id, input.fact_key).find((m) => m.fact.trim().toLowerCase() === input.fact.trim().toLowerCase());
            if (same) return { ...reinforce(same), action: 'contested' as const, superseded: current.id };
            result = { id: add('contested'), entity_id: entity.id, action: 'contested', superseded: current.id };
          }
        } else {
          // A key nobody holds yet: the same fact stored without a key (README's remember, then the
          // same one with a fact_key) is that fact, and takes the key; one under another key is not.
          const dup = findDuplicate(entity.id, input.category, input.fact, factTerms, vector);
          if (dup && (!input.fact_key || dup.fact_key === null)) return reinforce(dup, input.fact_key);
          result = { id: add('active'), entity_id: entity.id, action: 'added', superseded: null };
        }
        audit.record(actor, `memory.${result.action === 'added' ? 'add' : result.action === 'superseded' ? 'supersede' : 'contest'}`, result.id, null, {
          ...fields,
          superseded: result.superseded,
        });
        return result;
      });

      const sentence: Record<RememberAction, string> = {
        added: `Remembered for ${input.entity_name}: ${input.fact}`,
        reinforced: `Already known about ${input.entity_name}; confirmed: ${input.fact}`,
        superseded: `Updated ${input.entity_name}: ${input.fact} (replaces memory ${outcome.superseded})`,
        contested: `Kept as contested: ${input.fact} — memory ${outcome.superseded} comes from a more trusted source (trust ${trustLabel(trust)} is lower)`,
      };
      if (outcome.action !== 'reinforced') deps.onAdded?.({ id: outcome.id, entity_name: input.entity_name, fact: input.fact, category: input.category, action: outcome.action });
      return { result: sentence[outcome.action], ...outcome, warnings };
    },

    async recall(input: RecallInput): Promise<RecallOutcome & { result: string }> {
      const out = await recall({ repo, vectors, embedder, clock, decay: config, entityId: (n) => entities.find(n)?.id, tuning: deps.tuning, wordnet: deps.wordnet }, input);
      const now = clock.now();
      for (const r of out.results) {
        const b = touched.get(r.id);
        touched.set(r.id, { n: (b?.n ?? 0) + 1, at: now });
      }
      if (touched.size && !touchTimer) touchTimer = setTimeout(flushTouches, TOUCH_FLUSH_MS).unref();
      return { result: recallText(out.results, out.possible), ...out };
    },

    /**
     * A person says a fact still holds: `last_confirmed` = now, so its decay starts over; the
     * stored confidence is kept. Audited as `memory.confirm`.
     */
    confirm(input: { memory_id: number }, actor: Actor = 'system') {
      return db.transaction(() => {
        const m = repo.get(input.memory_id);
        if (!m) throw notFound(`memory_id: no memory with id ${input.memory_id}`);
        if (m.status !== 'active') throw invalid(`memory_id: memory ${m.id} is ${m.status}; only a current memory can be confirmed`);
        const now = clock.now();
        repo.reinforce(m.id, m.confidence, now);
        audit.record(actor, 'memory.confirm', m.id, { last_confirmed: m.last_confirmed }, { last_confirmed: now });
        return { result: `Confirmed for ${m.entity_name}: ${m.fact}`, id: m.id, last_confirmed: now };
      })();
    },

    /**
     * A person's correction of a current memory (admin UI): a new version through `revise`, same
     * entity, key and category unless given, with trust `user`.
     */
    async edit(input: { memory_id: number; fact: string; category?: RememberInput['category'] }, actor: Actor = 'system') {
      const m = repo.get(input.memory_id);
      if (!m) throw notFound(`memory_id: no memory with id ${input.memory_id}`);
      if (m.status !== 'active') throw invalid(`memory_id: memory ${m.id} is ${m.status}; edit the current version`);
      return this.revise(m.id, { fact: input.fact, category: input.category ?? m.category, source_trust: 5, source: actor }, actor);
    },

    /** Deletes one memory, or an entity with everything that belongs to it, in one transaction. */
    forget(input: ForgetInput, actor: Actor = 'system') {
      return db.transaction(() => {
        if (input.memory_id !== undefined) {
          const m = repo.get(input.memory_id);
          if (!m) throw notFound(`memory_id: no memory with id ${input.memory_id}`);
          vectors.remove(m.id);
          repo.delete(m.id);
          audit.record(actor, 'memory.forget', m.id, m, null);
          return { result: `Forgot memory ${m.id} about ${m.entity_name}: ${m.fact}`, deleted_memories: 1, entity_deleted: false };
        }
        const entity = entities.get(input.entity_name!);
        const ids = repo.idsOfEntity(entity.id);
        for (const id of ids) {
          vectors.remove(id);
          repo.delete(id);
        }
        db.prepare('DELETE FROM entities WHERE id = ?').run(entity.id);
        audit.record(actor, 'entity.forget', entity.name, { entity, memories: ids.length }, null);
        deps.onEntityForgotten?.(entity.name);
        return { result: `Forgot ${entity.name} and ${ids.length} memories`, deleted_memories: ids.length, entity_deleted: true };
      })();
    },

    /** Active memories whose decayed confidence is under the threshold, most faded first. */
    fading(input: FadingInput) {
      const now = clock.now();
      const entityId = input.entity_name === undefined ? undefined : entities.get(input.entity_name).id;
      const memories = repo
        .active(entityId)
        .map((m) => ({ ...m, effective_confidence: Math.round(effectiveConfidence(m, now, config) * 10_000) / 10_000 }))
        .filter((m) => m.effective_confidence < input.threshold)
        .sort((a, b) => a.effective_confidence - b.effective_confidence)
        .slice(0, input.limit)
        .map(({ embed_state: _e, ...m }) => m);
      const result = memories.length
        ? memories.map((m) => `- ${m.entity_name}: ${m.fact} (confidence now ${m.effective_confidence.toFixed(2)})`).join('\n')
        : `No memories below confidence ${input.threshold}.`;
      return { result, memories, threshold: input.threshold };
    },

    /**
     * A new version of a current memory (an edited Markdown line): the new row supersedes the old
     * one exactly as a same-`fact_key` remember does (valid_until, superseded_by, vector inactive),
     * keeping its entity and confidence, and its key unless `fact_key` is given (`null` drops it).
     * A key another active memory of the entity holds follows remember's rule: the new version
     * supersedes that one too when its trust is at least as high, else it is kept as contested.
     * A contested memory can be revised as well (its new version may then win the key).
     * Audited as `memory.supersede`.
     */
    async revise(
      id: number,
      change: { fact: string; category: string; source_trust: number; source: string; fact_key?: string | null },
      actor: Actor = 'system',
    ) {
      const head = repo.get(id);
      if (!head || head.status === 'superseded') throw notFound(`memory_id: no current memory with id ${id}`);
      const warnings: string[] = [];
      const text = indexText(head.entity_name, change.fact);
      const vector = await tryEmbed(text, warnings);
      const now = clock.now();
      const out = db.transaction(() => {
        if (repo.get(id)?.status !== head.status) throw notFound(`memory_id: memory ${id} changed meanwhile; retry`);
        const fact_key = change.fact_key === undefined ? head.fact_key : change.fact_key;
        const holder = fact_key === null ? undefined : repo.activeByKey(head.entity_id, fact_key);
        const rival = holder && holder.id !== head.id ? holder : undefined;
        const status = rival && change.source_trust < rival.source_trust ? 'contested' as const : 'active' as const;
        const fields = { entity_id: head.entity_id, fact: change.fact, category: change.category, confidence: head.confidence, source: change.source,
          source_trust: change.source_trust, fact_key, valid_from: now, status };
        const created = repo.insert(fields, terms(text).join(' '), now);
        storeVector(created, head.entity_id, change.category, status === 'active', vector);
        const displaced = [head, ...(rival && status === 'active' ? [rival] : [])];
        for (const old of displaced) {
          repo.supersede(old.id, created, now, now);
          vectors.setActive(old.id, false);
          audit.record(actor, 'memory.supersede', created, { id: old.id, fact: old.fact, category: old.category, source_trust: old.source_trust, fact_key: old.fact_key }, { ...fields, superseded: old.id });
        }
        return { id: created, status, rival: rival?.id ?? null };
      })();
      deps.onAdded?.({ id: out.id, entity_name: head.entity_name, fact: change.fact, category: change.category, action: out.status === 'active' ? 'superseded' : 'contested' });
      return { id: out.id, superseded: head.id, status: out.status, rival: out.rival, warnings };
    },

    /** Embeds up to `limit` pending memories (after an outage or a model change). */
    async embedPending(limit = 256): Promise<{ embedded: number; remaining: number }> {
      if (vectors.state !== 'ready') return { embedded: 0, remaining: repo.pendingCount() };
      const batch = repo.pending(limit);
      if (!batch.length) return { embedded: 0, remaining: 0 };
      const vecs = await embedder.embed(batch.map((m) => indexText(m.entity_name, m.fact)), { write: true });
      db.transaction(() => batch.forEach((m, i) => storeVector(m.id, m.entity_id, m.category, m.status === 'active', vecs[i])))();
      return { embedded: batch.length, remaining: repo.pendingCount() };
    },

    /** One memory by id (any status), or undefined. */
    get: (id: number): MemoryRow | undefined => repo.get(id),
    /** Memories waiting for a vector. */
    pendingCount: (): number => repo.pendingCount(),
    /** Whether `entity_name` (a name or an alias) holds exactly this fact, active (a replayed MQTT remember). */
    knows(entityName: string, fact: string): boolean {
      const e = entities.find(entityName);
      return Boolean(e && repo.hasActiveFact(e.id, fact));
    },
  };
}
export type MemoryService = ReturnType<typeof createMemoryService>;
