/**
 * Questions about reminders through the ask door (issue #34 item 5): "do I have any reminders?",
 * "what did I want to tell Anna?", "what should I remember when I get home?". Read through the
 * prospective tier and never fired by asking:
 *   - a situation in the question ("when I get home") is matched as `check_intentions` matches it, with
 *     `fire: false` (prospective.service.ts);
 *   - otherwise the live intentions (the speaker's, when known) that share a word with what the question
 *     is about ("Anna" — or any of her names), or all of them when it asks only for reminders.
 * Spoken plainly: "You have one reminder: when Anna gets home, remind her to call the plumber."
 */
import { tokenize } from '../../ai/text.js';
import { plural } from '../../lib/plural.js';
import type { MemoryAnswerDeps } from './memory-answers.js';
import type { Evidence } from './ask.schemas.js';
import type { AskQuestion, AskReply } from './memory-answers.js';

type Deps = Pick<MemoryAnswerDeps, 'prospective' | 'entities'>;

/** Words that ask about reminders or intentions. */
const ABOUT_REMINDERS =
  /\b(remind(?:er|ers|ed)?|intentions?|(?:want(?:ed)?|meant|mean|need(?:ed)?|supposed|going|planning) to (?:tell|ask|say|remind|mention|give|bring|call|do)|(?:should|must) (?:I|we|you) (?:remember|not forget)|(?:I|we|you) (?:should|must|need to|have to|ought to) (?:remember|not forget)|(?:have|need|got) to remember|anything to remember|(?:not|don't) (?:to )?forget)\b/i;
/** The situation a question asks about: "… when I get home", "… once Anna arrives". */
const SITUATION = /\b(when|once|after|before|as soon as|next time|if)\b\s+(.+?)[?.!]*$/i;
/** Stems of the asking itself, not of what it is about. */
const ASKING = new Set(
  tokenize(
    `remind reminder reminders reminded intention intentions want wanted meant mean need needed supposed going planning
     tell ask say mention give bring call remember forget have got anything any something should must did do does
     what which there list any all today tonight tomorrow set`,
  ),
);

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A reminder question: the intentions it is about, spoken; null when it does not ask about reminders. */
export async function answerReminder(deps: Deps, q: AskQuestion): Promise<AskReply | null> {
  if (!ABOUT_REMINDERS.test(q.question.replace(/’/g, "'"))) return null;
  const owner = q.speaker === undefined ? undefined : deps.entities.find(q.speaker);
  const live = deps.prospective.list({ active_only: true, ...(owner && { entity_name: owner.name }) }).intentions;
  let chosen = live;
  let narrowed = false;
  const situation = SITUATION.exec(q.question)?.[2];
  if (situation && live.length) {
    const peek = await deps.prospective.check(
      {
        text: owner ? situation.replace(/\b(I|me)\b/g, owner.name) : situation,
        ...(owner && { entity_name: owner.name }),
      },
      'system',
      { fire: false },
    );
    const ids = new Set(peek.triggered.map((t) => t.id));
    chosen = live.filter((i) => ids.has(i.id));
    narrowed = true;
  } else {
    const own = new Set(owner ? tokenize(owner.name) : []);
    const topic = [...new Set(tokenize(q.question))].filter((t) => !ASKING.has(t) && !own.has(t));
    if (topic.length) {
      // A person asked about by any of their names ("Mum" → Helga, whose triggers say "Helga").
      const words = new Set(topic);
      for (const t of topic) {
        const e = deps.entities.find(t);
        if (e)
          for (const n of [e.name, ...deps.entities.aliases(e.id).map((a) => a.alias)])
            tokenize(n).forEach((x) => words.add(x));
      }
      chosen = live.filter((i) =>
        tokenize(`${i.entity_name} ${i.trigger_text} ${i.action_text}`).some((t) => words.has(t)),
      );
      narrowed = true;
    }
  }
  if (!chosen.length) {
    const none =
      narrowed && live.length
        ? "I don't have a reminder about that."
        : owner
          ? 'You have no reminders.'
          : 'There are no reminders.';
    return {
      result: none,
      answer: { kind: narrowed && live.length ? 'unknown' : 'reminder' },
      sure: true,
      evidence: [],
    };
  }
  const owners = new Set(chosen.map((i) => i.entity_name));
  const say = (i: (typeof chosen)[number]) =>
    `${owner || owners.size === 1 ? '' : `for ${i.entity_name}, `}${lowerFirst(i.trigger_text)}, ${lowerFirst(i.action_text)}`;
  const shown = chosen.slice(0, 3);
  const more = chosen.length > shown.length ? `, and ${chosen.length - shown.length} more` : '';
  const who = owner ? 'You have' : owners.size === 1 ? `${[...owners][0]} has` : 'There are';
  const count = chosen.length === 1 ? 'one reminder' : plural(chosen.length, 'reminder');
  const list = shown.map(say);
  const joined = list.length > 1 ? `${list.slice(0, -1).join('; ')}; and ${list[list.length - 1]}` : list[0];
  const evidence: Evidence[] = chosen.map((i) => ({
    type: 'intention',
    id: i.id,
    entity: i.entity_name,
    text: `${i.trigger_text} → ${i.action_text}`,
  }));
  return {
    result: `${who} ${count}: ${joined}${more}.`.replace(/\.\.$/, '.'),
    answer: {
      kind: 'reminder',
      ...(owners.size === 1 && { entity: [...owners][0] }),
      value: shown.map((i) => `${upperFirst(i.trigger_text)}: ${i.action_text}`).join(' / '),
      count: chosen.length,
    },
    sure: true,
    evidence,
  };
}
