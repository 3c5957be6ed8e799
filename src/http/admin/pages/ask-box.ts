/**
 * The dashboard's "Ask" box: a question in everyday words (POST /admin/ask, CSRF like every admin
 * form; with htmx the answer replaces #ask-answer in place), the spoken answer (`result`) as
 * Hearth would say it, whether it is sure, and — small — what the answer rests on (evidence).
 */
import type { FastifyRequest } from 'fastify';
import type { AskOutput, Evidence } from '../../../tiers/ask/ask.schemas.js';
import { plural } from '../../../lib/plural.js';
import { html, seg, type Html } from '../html.js';
import { csrfField, pct, when } from '../layout.js';

export interface AskState {
  question?: string;
  answer?: AskOutput;
  /** A mistake in the question (empty, too long), by the field. */
  error?: string;
}

const KIND_WORDS: Record<string, string> = { readings: 'reading', rollup: 'rollup' };

const entityLink = (name?: string) => (name ? html`<a href="/admin/entity/${seg(name)}">${name}</a>` : '');

/** One piece of evidence in words: what was read, or the fact, place or reminder it rests on. */
function evidenceItem(e: Evidence, now: number): Html {
  const window =
    e.from !== undefined && e.to !== undefined
      ? html` <span class="span">${when(e.from, now)} → ${when(e.to, now)}</span>`
      : '';
  const conf = typeof e.confidence === 'number' ? html` <span class="muted">(${pct(e.confidence)})</span>` : '';
  if (e.type === 'readings' || e.type === 'rollup') {
    const what = e.count !== undefined ? plural(e.count, KIND_WORDS[e.type]) : `${KIND_WORDS[e.type]}s`;
    return html`<li data-type="${e.type}">${what} of ${entityLink(e.entity)}${e.metric ? html` <code>${e.metric}</code>` : ''}${window}</li>`;
  }
  const label = { memory: 'a fact', place: 'a location', intention: 'a reminder', pattern: 'a pattern' }[e.type];
  return html`<li data-type="${e.type}">${label}${e.entity ? html` about ${entityLink(e.entity)}` : ''}${e.text ? html`: ‘${e.text}’` : ''}${conf}${window}</li>`;
}

/** The answer area's content (also what htmx swaps in). */
export function askAnswer(state: AskState, now: number): Html {
  if (state.error) return html`<p class="error field-error" role="alert" id="error-question">${state.error}</p>`;
  const a = state.answer;
  if (!a) return html``;
  return html`<p class="said" data-kind="${a.answer.kind}" data-sure="${String(a.sure)}">${a.result}${
    a.sure
      ? ''
      : html` <span class="tag unsure" title="sure: false — it rests on a possible fact, a loosely matched subject or readings that stop early">not sure</span>`
  }</p>
${
  a.evidence.length
    ? html`<div class="evidence"><span class="muted">What this rests on:</span><ul>${a.evidence.map((e) => evidenceItem(e, now))}</ul></div>`
    : html`<p class="evidence muted">Nothing Hearth holds answers it.</p>`
}`;
}

export function askBox(req: FastifyRequest, state: AskState, now: number): Html {
  return html`<section class="ask" aria-label="Ask Hearth"><h2>Ask</h2>
<form method="post" action="/admin/ask" hx-post="/admin/ask" hx-target="#ask-answer" hx-swap="innerHTML" class="search ask-form">${csrfField(req)}
<label>A question about the home, its people or its past <input type="text" name="question" maxlength="500" required value="${state.question ?? ''}" placeholder="e.g. was the garage door open last night?" autocomplete="off"${state.error ? html` aria-invalid="true" aria-describedby="error-question"` : ''}></label>
<button type="submit" data-action="ask">Ask</button>
</form>
<div id="ask-answer" aria-live="polite">${askAnswer(state, now)}</div>
</section>`;
}
