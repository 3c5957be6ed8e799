/** Tier 5 tools, named as in the seed. Descriptions are written for the assistant that calls them. */
import type { Actor } from '../../tiers/audit/audit.repo.js';
import * as S from '../../tiers/spatial/spatial.schemas.js';
import type { SpatialService } from '../../tiers/spatial/spatial.service.js';
import { tool, type ToolTable } from '../tool.js';

export function spatialTools(table: ToolTable, s: { spatial: SpatialService }, actor: Actor): void {
  tool(
    table,
    'locate',
    'STORE where an object is (writes). Use when someone TELLS you where a thing is: "I put my car keys in the kitchen drawer" → entity_name "car keys", container_name "kitchen drawer". ' +
      'To ASK where something is, call find instead. ' +
      "The same place again confirms it; a new place moves it (the old one stays in location_history). Use the object's usual name, singular or plural as people say it.",
    S.LocateInput,
    (a) => s.spatial.locate(a, actor),
  );
  tool(
    table,
    'find',
    'ASK where an object is (read-only, stores nothing). Use when someone asks "where is X?" / "where did I leave my glasses?": pass the object as entity_name or the whole question as query. ' +
      'To STORE a new place, call locate instead. ' +
      'found=true gives container_name, confidence (it fades with time since last confirmed) and age_text ("2 hours ago") — say how long ago and hedge when confidence is low. ' +
      'Names match by spelling, then by meaning ("the hoover" finds the vacuum cleaner, "my mobile" the phone, "the clicker for the telly" the TV remote). ' +
      'found=false with candidates means the question fits several objects: ask which one. found=false with no candidates: nothing is known — result is a sentence you can say as it is ("I don\'t know where your wallet is.").',
    S.FindInput,
    (a) => s.spatial.findAsked(a),
    { readOnlyHint: true },
  );
  tool(
    table,
    'seen_at',
    'Confirm an object is still where it was ("yes, the keys are in the drawer"): raises its confidence by 0.1 and resets its age. ' +
      'With a different container_name it records the new place instead. entity_name is the stored name; a name that means exactly one located object ("mobile" for the phone) is taken as that object (use find first if unsure).',
    S.SeenAtInput,
    (a) => s.spatial.seenAt(a, actor),
  );
  tool(
    table,
    'location_history',
    'Every place an object has been recorded, newest first (the current one marked active) — for "where was it before?" or retracing steps.',
    S.LocationHistoryInput,
    (a) => s.spatial.history(a),
    { readOnlyHint: true },
  );
}
