/**
 * GET /admin/voices: voices the hub heard but cannot name yet (no audio is kept: when and where they
 * were heard, how often), with enroll (give the voice a person's name) and merge (two unknown voices
 * are one person). The forms post to actions-tiers.ts; a mistake answers this page with it by its field.
 */
import type { FastifyRequest } from 'fastify';
import type { Services } from '../../../services.js';
import { plural } from '../../../lib/plural.js';
import { html, seg, type Html } from '../html.js';
import { csrfField, page, when } from '../layout.js';
import { TIER_STYLES } from '../tier-words.js';

export interface VoiceFormState {
  /** The speaker whose form is answered again, what was typed, and the problem by field. */
  speaker: string;
  form: 'enroll' | 'merge';
  values: Record<string, string | undefined>;
  errors: Record<string, string>;
}

const fieldError = (msg: string | undefined, id: string) =>
  msg ? html`<span class="field-error" id="${id}" role="alert">${msg}</span>` : '';

export function voicesPage(req: FastifyRequest, s: Services, state?: VoiceFormState): Html {
  const now = s.clock.now();
  const { speakers } = s.voices.unknown({ limit: 200, min_detections: 0 });
  const names = speakers.map((x) => x.entity_name);
  const items = speakers.map((v) => {
    const mine = state?.speaker === v.entity_name ? state : undefined;
    const enrollErr = mine?.form === 'enroll' ? mine.errors : {};
    const mergeErr = mine?.form === 'merge' ? mine.errors : {};
    const others = names.filter((n) => n !== v.entity_name);
    const id = `voice-${seg(v.entity_name)}`;
    const room = v.first_seen_room ? html` in ${String(v.first_seen_room)}` : '';
    const last = when(v.last_seen === null ? null : Number(v.last_seen), now);
    const invalid = (err: string | undefined, errId: string) =>
      err ? html` aria-invalid="true" aria-describedby="${errId}"` : '';
    const typed = (form: VoiceFormState['form'], k: string) => (mine?.form === form ? (mine.values[k] ?? '') : '');
    return html`<article class="voice" id="${id}">
<h2><a href="/admin/entity/${seg(v.entity_name)}">${v.entity_name}</a></h2>
<p>Heard <strong>${plural(Number(v.detection_count), 'time')}</strong> · first ${when(Number(v.first_seen), now)}${room}
 · last ${last} · ${plural(Number(v.memory_count), 'memory', 'memories')}</p>
<form method="post" action="/admin/voices/enroll" class="stack">${csrfField(req)}
<input type="hidden" name="entity_name" value="${v.entity_name}">
<label>This is <input type="text" name="new_name" required maxlength="200" placeholder="their name, e.g. Anna"
 value="${typed('enroll', 'new_name')}"${invalid(enrollErr.new_name, `${id}-name-error`)}></label>
${fieldError(enrollErr.new_name, `${id}-name-error`)}
<button type="submit" data-action="enroll">Name this voice</button>
</form>
<form method="post" action="/admin/voices/merge" class="stack">${csrfField(req)}
<input type="hidden" name="source_name" value="${v.entity_name}">
<label>Same person as <input type="text" name="target_name" required maxlength="200" list="voice-names" placeholder="${others[0] ?? 'a name, e.g. Brian'}"
 value="${typed('merge', 'target_name')}"${invalid(mergeErr.target_name, `${id}-merge-error`)}></label>
${fieldError(mergeErr.target_name, `${id}-merge-error`)}
<button type="submit" data-action="merge"
 title="merge: everything heard and remembered of ${v.entity_name} moves to that voice or person; ${v.entity_name} is removed">Merge into that one</button>
</form>
</article>`;
  });
  const body = html`
<p class="muted">When a voice the hub does not know speaks, it is noted as an unknown speaker. Say who it is, or that two of
them are one person. No recordings are kept — only when and where a voice was heard.</p>
${items.length ? items : html`<p class="empty">No unknown voices.</p>`}
<datalist id="voice-names">${names.map((n) => html`<option value="${n}">`)}</datalist>`;
  return page(req, { title: 'Unknown voices', active: 'Voices', styles: TIER_STYLES }, body);
}
