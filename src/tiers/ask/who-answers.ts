/**
 * "Who is my wife?", "what's my wife's name?", "who is Chidi's dad?" — a role asked about is answered
 * by the household's relations (src/tiers/prospective/roles.ts), with `speaker` as "my": "Your wife is
 * Anna." No relation, or no speaker for "my": null, and the fact policy answers (memory-answers.ts).
 */
import type { MemoryAnswerDeps } from './memory-answers.js';
import { resolveRoles } from '../prospective/roles.js';
import type { AskQuestion, AskReply } from './memory-answers.js';

type Deps = Pick<MemoryAnswerDeps, 'entities' | 'relations'>;

/** The whole question asks who a role is: "who is my wife", "what's the name of our youngest". */
const WHO_IS =
  /^\s*(?:who(?:'s| is| are)|what(?:'s| is| are)(?: the names? of)?|what(?:'s| is) the name of|tell me(?: the name of)?)\s+(.+?)(?:'s names?)?\s*[?.!]*\s*$/i;

export function answerWho(deps: Deps, q: AskQuestion): AskReply | null {
  const m = WHO_IS.exec(q.question.replace(/’/g, "'"));
  if (!m) return null;
  const asked = m[1];
  const [role] = resolveRoles(asked, q.speaker, deps);
  // The role must be all that is asked ("my wife", not "my wife's birthday").
  if (role?.start !== 0 || role.end !== asked.length || role.names.length !== 1) return null;
  const name = role.names[0];
  const said = role.phrase.replace(/^(my|our)\b/i, 'your');
  return {
    result: `${said.charAt(0).toUpperCase()}${said.slice(1)} is ${name}.`,
    answer: { kind: 'fact', entity: name, value: name },
    sure: true,
    evidence: [],
  };
}
