/**
 * Tier 4 — prospective memory (SPEC §5 "Intentions"): `intend` stores trigger → action,
 * `check_intentions(text)` fires the active, unexpired intentions whose trigger is relevant to the
 * text, `dismiss_intention`, `list_intentions`. Every mutation is audited; each firing is reported
 * through `onTriggered` (wired to the `intention_triggered` event, published on MQTT).
 *
 * Relevance (constants tuned on eval/intentions-tune.json via scripts/eval-tiers.ts):
 *   keyword  k = weighted coverage of the trigger's terms by the text's terms (trigger-match.ts), or,
 *            when higher, the same coverage through WordNet (synonyms, similar words, derivations
 *            only — "a kind of" fired on other events: "put the washing machine on" for "when the
 *            washing machine finishes"); eval/intentions-tune.json: paraphrases 12 → 13 of 20,
 *            negatives 42/47 both ways; held out (eval/intentions.json, use-lite): 3 → 4 of 8, 19/19 quiet;
 *            candidates come from the FTS5 index over normalised trigger terms (quoted literals).
 *   vector   v = cosine of the event texts (trigger-match.ts `eventText`: no lead-in, names masked)
 *            when an embedder answers; trigger vectors are a BLOB per intention, compared in JS (a
 *            household has at most a few hundred active ones).
 *   fire  ⇔  no conflict (negation / opposite event / another time), every required name present, and
 *            (k ≥ keywordMin or (v ≥ vectorMin[provider], the text shares < vectorBelow of the
 *            trigger's event words, and v leads every other live trigger's cosine by ≥ vectorLead));
 *            score = max(k, v).
 * A `once` intention deactivates in the same transaction that counts the firing, guarded by
 * `active = 1`, so two concurrent checks cannot both fire it.
 */
import type { EmbedOptions, Embedder } from '../../ai/types.js';
import type { Db } from '../../db/open.js';
import type { Clock } from '../../lib/clock.js';
import { invalid, notFound } from '../../lib/errors.js';
import { toEpoch } from '../../lib/schema.js';
import type { Actor, AuditRepo } from '../audit/audit.repo.js';
import type { EntitiesRepo } from '../entities/entities.repo.js';
import { ftsMatch } from '../memory/text-match.js';
import {
  flag,
  type CheckIntentionsInput,
  type DismissIntentionInput,
  type IntendInput,
  type Intention,
  type IntentionStatus,
  type ListIntentionsInput,
  type TriggeredIntention,
} from './prospective.schemas.js';
import type { WordNet, WordRel } from '../../ai/wordnet.js';
import { tokenize } from '../../ai/text.js';
import { prepareQuery, wordnetCoverage, type PreparedQuery } from '../../ai/wordnet-coverage.js';
import {
  capitalisedNames,
  conflicts,
  LIGHT_STEMS,
  LIGHT_WEIGHT,
  cosine,
  coverage,
  eventText,
  isTopicTrigger,
  otherTime,
  requiredTerms,
  triggerEventText,
  triggerTerms,
} from './trigger-match.js';

export interface IntentionTuning {
  /** Minimum weighted keyword coverage. */
  keywordMin: number;
  /** Minimum cosine per embedder provider (the local hashed embedder's scale differs from a neural model's). */
  vectorMin: Record<string, number>;
  /**
   * The vector may fire only a text whose coverage of the trigger's event words (names aside) is below
   * this: a text in the trigger's own words is judged by the keyword path and its guards, the
   * embedder answers for other words.
   */
  vectorBelow: number;
  /** A vector-only firing must lead every other live trigger's cosine by this much (undefined: no such rule). */
  vectorLead?: number;
}
/**
 * Tuned on eval/intentions-tune.json only (`node dist/scripts/eval-tiers.js --sweep [--provider
 * use-lite]`; eval/intentions.json is held out): the setting with the most cases exactly right.
 * keywordMin 0.7 needs every content word of a two- or three-word event (two of three, 0.67, fired
 * "I bought a new bread maker" for "when the bread maker is done"): 73 % exact against 70 % at 0.6.
 * use-lite: cosine of the event texts ≥ 0.45, only for texts that share under 0.3 of the event's
 * words (vectorBelow), and only for the trigger the text is closest to, by ≥ 0.06 over the next
 * (vectorLead: "Grace is home" is near both "when Grace gets home" and "when Grace leaves the
 * house"): 83 % exact, paraphrases 12/20, negatives quiet 42/47. Without vectorLead the best was
 * 78 % / 9/20 / 41/47 at cosine 0.55 (0.45 without it fires wrongly: 66 %). The local embedder is
 * lexical and adds nothing there (0/20 paraphrases at any cosine), so it keeps 0.7; a wrong firing
 * consumes a `once` intention, so precision wins. `default` (Ollama/OpenAI models, which cannot run
 * here) is use-lite's value raised 0.05, a guess.
 */
export const DEFAULT_INTENTION_TUNING: IntentionTuning = {
  keywordMin: 0.7,
  vectorMin: { local: 0.7, 'use-lite': 0.45, default: 0.5 },
  vectorBelow: 0.3,
  vectorLead: 0.06,
};

/** WordNet relations that say the same event in other words; "a kind of" (hypernym, hyponym) fired on other events. */
const EVENT_RELS: ReadonlySet<WordRel> = new Set(['self', 'lemma', 'synonym', 'similar', 'derived']);

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
}

interface Row {
  id: number;
  entity_id: number;
  entity_name: string;
  trigger_text: string;
  action_text: string;
  active: number;
  once: number;
  expires_at: number | null;
  created: number;
  fired_count: number;
  last_fired: number | null;
  embedding: Buffer | null;
  embed_model: string | null;
  terms: string;
}

const SELECT = `SELECT i.*, e.name AS entity_name, f.terms AS terms
  FROM intentions i JOIN entities e ON e.id = i.entity_id JOIN intention_fts f ON f.rowid = i.id`;
const LIVE =
  'i.active = 1 AND (i.expires_at IS NULL OR i.expires_at > @now) AND (@entity IS NULL OR i.entity_id = @entity)';

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const fromBlob = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const round = (x: number) => Math.round(x * 10_000) / 10_000;

function status(r: Row, now: number): IntentionStatus {
  if (r.active) return r.expires_at !== null && r.expires_at <= now ? 'expired' : 'active';
  return r.once && r.fired_count > 0 ? 'fired' : 'dismissed';
}

function view(r: Row, now: number): Intention {
  return {
    id: r.id,
    entity_name: r.entity_name,
    trigger_text: r.trigger_text,
    action_text: r.action_text,
    active: r.active === 1,
    once: r.once === 1,
    expires_at: r.expires_at,
    created: r.created,
    fired_count: r.fired_count,
    last_fired: r.last_fired,
    status: status(r, now),
  };
}

export function createProspectiveService(deps: ProspectiveDeps) {
  const { db, clock, entities, audit } = deps;
  const embedder = deps.embedder ?? null;
  const tuning = deps.tuning ?? DEFAULT_INTENTION_TUNING;
  // A trigger's WordNet expansion is made once (triggers are few and checked often).
  const prepared = new Map<string, PreparedQuery>();
  const triggerExpansion = (text: string) => {
    let p = prepared.get(text);
    if (!p) {
      if (prepared.size >= 1000) prepared.clear();
      prepared.set(text, (p = prepareQuery(deps.wordnet, text, { rels: EVENT_RELS })));
    }
    return p;
  };
  /** Stored trigger vectors are of the event text (trigger-match.ts `eventText`); older ones are re-made. */
  const vecModel = embedder ? `${embedder.fingerprint}#event` : null;

  const insert = db.prepare(
    `INSERT INTO intentions (entity_id, trigger_text, action_text, once, expires_at, created, embedding, embed_model)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ftsInsert = db.prepare('INSERT INTO intention_fts (rowid, terms) VALUES (?, ?)');
  const byId = db.prepare(`${SELECT} WHERE i.id = ?`);
  const keyword = db.prepare(`${SELECT} WHERE intention_fts MATCH @match AND ${LIVE}`);
  const live = db.prepare(`${SELECT} WHERE ${LIVE}`);
  const setVector = db.prepare('UPDATE intentions SET embedding = ?, embed_model = ? WHERE id = ?');
  const fire = db.prepare(
    'UPDATE intentions SET fired_count = fired_count + 1, last_fired = @now, active = CASE WHEN once = 1 THEN 0 ELSE 1 END WHERE id = @id AND active = 1',
  );
  const deactivate = db.prepare('UPDATE intentions SET active = 0 WHERE id = ?');
  // Entities named without a type are `unknown` (entity-types.ts): a name in a trigger is still a name.
  // Their aliases too: "when Mum gets home" names a person as much as "when Anna gets home".
  const persons = db.prepare(
    `SELECT name FROM entities WHERE type IN ('person', 'unknown')
     UNION ALL SELECT a.alias FROM entity_aliases a JOIN entities e ON e.id = a.entity_id WHERE e.type IN ('person', 'unknown')`,
  );
  const personNames = () => (persons.all() as { name: string }[]).map((p) => p.name);

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
        const { lastInsertRowid } = insert.run(
          entity.id,
          input.trigger_text,
          input.action_text,
          input.once ? 1 : 0,
          expires,
          now,
          vec ? toBlob(vec) : null,
          vec ? vecModel : null,
        );
        const id = Number(lastInsertRowid);
        ftsInsert.run(id, terms.join(' '));
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

    /** Fires the live intentions the text is relevant to; `once` ones deactivate. */
    async check(input: CheckIntentionsInput, actor: Actor = 'system') {
      const warnings: string[] = [];
      let entity: number | null = null;
      if (input.entity_name !== undefined) {
        const e = entities.find(input.entity_name);
        if (!e)
          return {
            result: `No intentions for ${input.entity_name}.`,
            triggered: [] as TriggeredIntention[],
            warnings: [`no entity named "${input.entity_name}"`],
          };
        entity = e.id;
      }
      const textTerms = new Set(triggerTerms(input.text));
      const textStems = new Set([...tokenize(input.text), ...textTerms]);
      const params = { now: clock.now(), entity };
      const candidates = new Map<number, Row>();
      const match = ftsMatch([...textTerms]);
      if (match) for (const r of keyword.all({ ...params, match }) as Row[]) candidates.set(r.id, r);

      // One embedder call: the text, plus the live triggers whose vector is missing or from another
      // model (re-made lazily here, so a model change or an outage at `intend` heals itself).
      let textVec: Float32Array | null = null;
      const names = personNames();
      if (embedder) {
        const all = live.all(params) as Row[];
        const stale = all.filter((r) => r.embed_model !== vecModel || !r.embedding);
        const masked = new Set([...names, ...all.flatMap((r) => capitalisedNames(r.trigger_text))]);
        const vecs = await embed(
          [...stale.map((r) => triggerEventText(r.trigger_text, names)), eventText(input.text, masked)],
          warnings,
        );
        if (vecs) {
          db.transaction(() => stale.forEach((r, i) => setVector.run(toBlob(vecs[i]), vecModel, r.id)))();
          stale.forEach((r, i) => Object.assign(r, { embedding: toBlob(vecs[i]), embed_model: vecModel }));
          textVec = vecs[stale.length];
          for (const r of all) if (!candidates.has(r.id)) candidates.set(r.id, r);
        }
      } else warnings.push('no embedder configured: keyword matching only');

      const vectorMin = embedder ? (tuning.vectorMin[embedder.provider] ?? tuning.vectorMin.default) : Infinity;
      const hits: (TriggeredIntention & { row: Row })[] = [];
      const cos = new Map<number, number>();
      for (const r of candidates.values())
        cos.set(
          r.id,
          textVec && r.embedding && r.embed_model === vecModel ? cosine(textVec, fromBlob(r.embedding)) : 0,
        );
      // The best and second-best cosine: a trigger's lead is over the best of the others.
      let [bestId, best, second] = [-1, 0, 0];
      for (const [id, v] of cos) {
        if (v > best) [bestId, best, second] = [id, v, best];
        else if (v > second) second = v;
      }
      const lead = (id: number) => cos.get(id)! - (id === bestId ? second : best);
      for (const r of candidates.values()) {
        const trig = r.terms.split(' ');
        if (conflicts(new Set(trig), textTerms) || otherTime(r.trigger_text, input.text)) continue;
        const required = requiredTerms(r.trigger_text, names);
        if (!required.every((t) => textTerms.has(t))) continue;
        let k = coverage(trig, textTerms, isTopicTrigger(r.trigger_text));
        // The same coverage through WordNet (generic words light, as above); it may only add evidence.
        if (deps.wordnet && k < tuning.keywordMin) {
          const w = (t: string) => (LIGHT_STEMS.has(t) ? LIGHT_WEIGHT : 1);
          k = Math.max(k, wordnetCoverage(triggerExpansion(r.trigger_text), textStems, w));
        }
        // How much of the trigger's event (names aside: they are checked above) the text says in the same words.
        const kEvent = coverage(
          trig.filter((t) => !required.includes(t)),
          textTerms,
        );
        const v = cos.get(r.id)!;
        if (
          k < tuning.keywordMin &&
          (v < vectorMin ||
            kEvent >= tuning.vectorBelow ||
            (tuning.vectorLead !== undefined && lead(r.id) < tuning.vectorLead))
        )
          continue;
        hits.push({
          id: r.id,
          entity_name: r.entity_name,
          trigger_text: r.trigger_text,
          action_text: r.action_text,
          score: round(Math.max(k, v)),
          row: r,
        });
      }
      hits.sort((a, b) => b.score - a.score || a.id - b.id);

      const now = clock.now();
      const triggered = db.transaction(() =>
        hits
          .filter((h) => fire.run({ now, id: h.id }).changes === 1)
          .map(({ row, ...t }) => {
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
        const r = byId.get(id) as Row | undefined;
        if (!r) throw notFound(`intention_id: no intention with id ${id}`);
        if (!r.active) return { result: `Intention ${id} was already inactive.`, id, dismissed: false };
        deactivate.run(id);
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
      const rows = db
        .prepare(
          `${SELECT} WHERE ${activeOnly ? LIVE : '(@entity IS NULL OR i.entity_id = @entity)'} ORDER BY i.id DESC`,
        )
        .all({ now, entity }) as Row[];
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
