/**
 * Home Assistant asks Hearth (#34): `rest_command.hearth_ask` and `script.hearth_ask` rendered as HA
 * would and sent to a real hub over HTTP, at a fixed clock with a few days of garage door, bedroom
 * temperature and kettle readings. The script speaks /ask's `result` with the configured TTS, passes
 * who asks (the field, else the person of the HA user who ran it), and is the "what do you remember"
 * script too: a fact comes back through /ask, a guess never as a fact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { post, type TestHub } from '../helpers/hub.js';
import { haYaml, render, renderData } from '../helpers/ha-templates.js';
import { buildHome, GARAGE_OPEN, KETTLE_RUNS } from '../tiers/ask/home.js';

const DIR = 'integrations/homeassistant';
const TOKEN = 'ha-ask-token';
const auth = { authorization: `Bearer ${TOKEN}` };
const pkg = haYaml(join(DIR, 'packages/hearth.yaml'), { hearth_authorization: `Bearer ${TOKEN}` });
const script = pkg.script.hearth_ask;
let hub: TestHub;
let base: string;

// The ask tier's own small home (Berlin, a fixed clock; eight days of a Zigbee2MQTT garage door, a
// bedroom sensor and a kettle plug, stored through POST /record/bulk and rolled up as the scheduler would).
beforeAll(async () => {
  hub = await buildHome({ token: TOKEN });
  base = (await hub.start()).http!;
  await post(
    hub,
    '/remember',
    { entity_name: 'Brian', fact: 'Brian likes the living room at 21 °C in the evening', category: 'preference' },
    auth,
  );
  await post(
    hub,
    '/remember',
    { entity_name: 'Sam', fact: 'Sam the plumber services the gas heater every October' },
    auth,
  );
}, 120_000);
afterAll(async () => hub?.close());

/** What HA's rest_command does: render url and payload, send with its headers and content type. */
async function restCommand(name: string, vars: Record<string, unknown>) {
  const cmd = pkg.rest_command[name];
  const body = render(cmd.payload, vars);
  const res = await fetch(render(cmd.url, vars).replace('http://hearth.local:8900', base), {
    method: cmd.method,
    headers: { 'content-type': cmd.content_type, ...cmd.headers },
    body,
  });
  return { sent: JSON.parse(body) as Record<string, unknown>, status: res.status, body: (await res.json()) as any };
}

/** What HA does when the script runs: its variables from the call's fields (and `this`, `states`), then each step. */
async function runScript(fields: Record<string, unknown>, ha: Record<string, unknown> = {}) {
  const vars: Record<string, unknown> = { ...ha, ...fields };
  for (const [k, v] of Object.entries(script.variables as Record<string, string>)) vars[k] = render(v, vars).trim();
  const [ask, speak] = script.sequence;
  expect(ask.action).toBe('rest_command.hearth_ask');
  const answer = await restCommand('hearth_ask', renderData(ask.data, vars));
  vars[ask.response_variable] = { status: answer.status, content: answer.body };
  expect(speak.action).toBe('tts.speak');
  return {
    answer,
    tts: render(speak.target.entity_id, vars),
    said: renderData(speak.data, vars) as { media_player_entity_id: string; message: string },
  };
}

describe('rest_command.hearth_ask', () => {
  it('posts the question to /ask, with speaker only when there is one', async () => {
    const cmd = pkg.rest_command.hearth_ask;
    expect(cmd).toMatchObject({ method: 'POST', url: 'http://hearth.local:8900/ask' });
    const quoted = 'what does "Brian" like?\nin the evening';
    expect(JSON.parse(render(cmd.payload, { question: quoted }))).toEqual({ question: quoted });
    expect(JSON.parse(render(cmd.payload, { question: 'q', speaker: '' }))).toEqual({ question: 'q' });
    expect(JSON.parse(render(cmd.payload, { question: 'q', speaker: 'Brian' }))).toEqual({
      question: 'q',
      speaker: 'Brian',
    });
    const r = await restCommand('hearth_ask', { question: 'when did the kettle last run?', speaker: 'Brian' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ ok: true, result: expect.any(String), sure: expect.any(Boolean) });
  });
});

describe('script.hearth_ask speaks what /ask answers', () => {
  const examples: [string, string][] = [
    ['Was the garage door open last night?', 'state'],
    ['How warm was the bedroom yesterday evening?', 'measure'],
    ['When did the kettle last run?', 'last'],
  ];
  it.each(examples)('%s → the spoken result of /ask (kind %s)', async (question, kind) => {
    const run = await runScript({ question, media_player: 'media_player.kitchen' });
    expect(run.answer.status, JSON.stringify(run.answer.body)).toBe(200);
    const direct = await post(hub, '/ask', { question }, auth);
    expect(run.said).toEqual({ media_player_entity_id: 'media_player.kitchen', message: direct.body.result });
    expect(run.tts).toBe('tts.google_translate_en_com');
    const a = run.answer.body.answer;
    expect(a.kind).toBe(kind);
    if (kind === 'state') {
      expect(a).toMatchObject({ entity: 'garage_door', value: true });
      expect(a.spans.find((x: { value: boolean }) => x.value)?.from).toBe(GARAGE_OPEN[1][0]);
      expect(run.said.message).toMatch(/open/i);
    }
    if (kind === 'measure') {
      expect(a).toMatchObject({ entity: 'bedroom_sensor', unit: '°C' });
      expect(a.value).toBeCloseTo(21, 0);
      expect(run.said.message).toMatch(/21/);
    }
    if (kind === 'last') expect(Math.abs(a.at - KETTLE_RUNS[2][0])).toBeLessThanOrEqual(300);
    expect(run.said.message).not.toContain(question);
  });

  it('is the "what do you remember" script too: a fact through /ask, a guess never said as a fact', async () => {
    const fact = await runScript({ question: 'what temperature does Brian like in the evening?' });
    expect(fact.answer.body.answer.kind).toBe('fact');
    expect(fact.said.message).toContain('21 °C');
    const guess = await runScript({ question: 'who looks after our boiler?' });
    expect(guess.answer.status).toBe(200);
    expect(guess.said.message).toMatch(/^(I'm not sure|I don't know)/); // hedged or not known: never stated
    expect(guess.said.message).not.toMatch(/^Sam the plumber/);
  });

  it('who asks: asked_by, else the person of the HA user who ran it; nobody when HA does not know', async () => {
    const states = {
      person: [
        { entity_id: 'person.anna', name: 'Anna', attributes: { user_id: 'u-anna' } },
        { entity_id: 'person.brian', name: 'Brian', attributes: { user_id: 'u-brian' } },
      ],
    };
    const asked = (fields: Record<string, unknown>, ha: Record<string, unknown>) =>
      runScript({ question: 'what temperature do I like in the evening?', ...fields }, ha).then((r) => r.answer);
    const byUser = await asked({}, { states, this: { context: { user_id: 'u-brian' } } });
    expect(byUser.sent).toEqual({ question: 'what temperature do I like in the evening?', speaker: 'Brian' });
    expect(byUser.body.result).toContain('21 °C'); // "I" is Brian
    expect(
      (await asked({ asked_by: 'Anna' }, { states, this: { context: { user_id: 'u-brian' } } })).sent.speaker,
    ).toBe('Anna');
    const nobody = await asked({}, { states, this: { context: { user_id: null } } });
    expect(nobody.sent).toEqual({ question: 'what temperature do I like in the evening?' });
    expect(nobody.status).toBe(200);
  });

  it('speaker, the older name of media_player, still says where to speak; tts_entity picks the voice', async () => {
    const run = await runScript({
      question: 'when did the kettle last run?',
      speaker: 'media_player.hall',
      tts_entity: 'tts.piper',
    });
    expect(run.said.media_player_entity_id).toBe('media_player.hall');
    expect(run.tts).toBe('tts.piper');
    expect(run.answer.sent).toEqual({ question: 'when did the kettle last run?' });
  });

  it('an answer that is not 200 is said as "Hearth did not answer"', async () => {
    const run = await runScript({ question: '' });
    expect(run.answer.status).toBe(400);
    expect(run.said.message).toBe('Hearth did not answer');
  });
});
