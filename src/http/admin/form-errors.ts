/**
 * Form errors in the household's words, by the field they are about. The API keeps its
 * `field: what is wrong` messages (for developers and models); the admin forms say it plainly.
 */
import { z } from 'zod';
import { isHubError } from '../../lib/errors.js';

/**
 * Where the browser goes back to. Checked with the rest of the form, before the action: a control
 * character could not go into the `Location` header, and a done action must never answer an error.
 */
export const Next = z
  .string()
  .max(2000)
  .regex(/^\P{Cc}*$/u, 'must not contain control characters (a line break, a carriage return)')
  .optional();
/** Every admin form: its CSRF token and where to go back to; each form extends it with its own fields. */
export const Form = z.object({ _csrf: z.string().optional(), next: Next });

/** The schema's own limit, so a message cannot drift from it. */
const atMost = (what: string) => (i: z.core.$ZodIssue) =>
  `${what} can be at most ${'maximum' in i ? String(i.maximum) : 'so many'} characters`;
const MESSAGES: Record<string, Record<string, string | ((i: z.core.$ZodIssue) => string)>> = {
  fact: {
    too_small: 'The fact is empty',
    too_big: atMost('The fact'),
    invalid_format: 'The fact contains a character that cannot be stored',
  },
  fact_key: { too_big: atMost('The key'), too_small: 'The key is empty' },
  question: {
    too_small: 'Type a question first',
    too_big: atMost('The question'),
    invalid_format: 'The question contains a character that cannot be stored',
  },
};
const FALLBACK: Record<string, string> = {
  fact: 'The fact is empty',
  fact_key: 'The key can be at most 100 characters',
  category: 'Choose one of the categories in the list',
};

export type FieldErrors = Record<string, string>;

/** The first problem of each field, in plain words. */
export function fieldErrors(err: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of err.issues) {
    const field = String(issue.path[0] ?? 'form');
    const say = MESSAGES[field]?.[issue.code];
    out[field] ??= (typeof say === 'function' ? say(issue) : say) ?? FALLBACK[field] ?? 'This value is not valid';
  }
  return out;
}

/** A service's refusal of a memory action, in plain words (anything else is rethrown). */
export function plainRefusal(e: unknown): string {
  if (!isHubError(e)) throw e;
  if (/is (superseded|contested); edit the current version/.test(e.message))
    return 'This fact was already replaced by a newer version; edit the current version instead.';
  if (e.code === 'not_found') return 'That memory is no longer there: it was forgotten or replaced meanwhile.';
  if (e.code === 'invalid') return `The hub did not accept that: ${e.message.replace(/^\w+: /, '')}`;
  throw e;
}
