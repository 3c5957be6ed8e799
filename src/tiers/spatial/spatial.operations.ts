/**
 * Tier 5 operations, named as in the seed (SPEC §6): each declared once for HTTP and MCP
 * (lib/operation.ts). Descriptions are written for the assistant that calls them.
 */
import { operationTable } from '../../lib/operation.js';
import { actorOf } from '../audit/audit.repo.js';
import * as S from './spatial.schemas.js';
import type { SpatialService } from './spatial.service.js';

type Svc = { spatial: SpatialService };

export const spatialOperations = operationTable<Svc>('spatial', (op) => [
  op({
    name: 'locate',
    http: { method: 'POST', path: '/locate' },
    input: S.LocateInput,
    output: S.LocateOutput,
    summary: 'Store or update where an object is',
    description:
      'STORE where an object is (writes). Use when someone TELLS you where a thing is: "I put my car keys in the kitchen drawer" → entity_name "car keys", container_name "kitchen drawer". ' +
      'To ASK where something is, call find instead. ' +
      "The same place again confirms it; a new place moves it (the old one stays in location_history). Use the object's usual name, singular or plural as people say it.",
    call: (s, input, ctx) => s.spatial.locate(input, actorOf(ctx)),
  }),
  op({
    name: 'find',
    http: { method: 'POST', path: '/find' },
    input: S.FindInput,
    output: S.FindOutput,
    summary: 'Last known place of an object, with decayed confidence and age',
    description:
      'ASK where an object is (read-only, stores nothing). Use when someone asks "where is X?" / "where did I leave my glasses?": pass the object as entity_name or the whole question as query. ' +
      'To STORE a new place, call locate instead. ' +
      'found=true gives container_name, confidence (it fades with time since last confirmed) and age_text ("2 hours ago") — say how long ago and hedge when confidence is low. ' +
      'Names match by spelling, then by meaning ("the hoover" finds the vacuum cleaner, "my mobile" the phone, "the clicker for the telly" the TV remote). ' +
      'found=false with candidates means the question fits several objects: ask which one. found=false with no candidates: nothing is known — result is a sentence you can say as it is ("I don\'t know where your wallet is.").',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.spatial.findAsked(input),
  }),
  op({
    name: 'seen_at',
    http: { method: 'POST', path: '/seen_at' },
    input: S.SeenAtInput,
    output: S.SeenAtOutput,
    summary: 'Confirm an object is still where it was (or seen elsewhere)',
    description:
      'Confirm an object is still where it was ("yes, the keys are in the drawer"): raises its confidence by 0.1 and resets its age. ' +
      'With a different container_name it records the new place instead. entity_name is the stored name; a name that means exactly one located object ("mobile" for the phone) is taken as that object (use find first if unsure).',
    call: (s, input, ctx) => s.spatial.seenAt(input, actorOf(ctx)),
  }),
  op({
    name: 'location_history',
    http: { method: 'GET', path: '/location_history/:entity_name' },
    input: S.LocationHistoryInput,
    output: S.LocationHistoryOutput,
    summary: 'Every recorded place of an object, newest first',
    description:
      'Every place an object has been recorded, newest first (the current one marked active) — for "where was it before?" or retracing steps.',
    annotations: { readOnlyHint: true },
    call: (s, input) => s.spatial.history(input),
  }),
]);
