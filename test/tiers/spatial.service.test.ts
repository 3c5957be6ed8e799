import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sql from '../../src/db/migrations/005-prospective-spatial.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { manualClock, type ManualClock } from '../../src/lib/clock.js';
import { createAuditRepo } from '../../src/tiers/audit/audit.repo.js';
import { createEntitiesRepo } from '../../src/tiers/entities/entities.repo.js';
import * as S from '../../src/tiers/spatial/spatial.schemas.js';
import { createSpatialService, type SpatialService } from '../../src/tiers/spatial/spatial.service.js';

const HOUR = 3600;
let dir: string;
let db: Db;
let clock: ManualClock;
let s: SpatialService;

function service(halfLifeHours = 24): SpatialService {
  return createSpatialService({
    db,
    clock,
    entities: createEntitiesRepo(db, clock),
    audit: createAuditRepo(db, clock),
    config: { location_decay_halflife_hours: halfLifeHours },
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-spatial-'));
  db = openDatabase({ dataDir: dir });
  // Until the migration list includes 005, apply it here.
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'locations'").get()) db.exec(sql);
  clock = manualClock();
  s = service();
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const locate = (input: Record<string, unknown>) => s.locate(S.LocateInput.parse(input), 'http');
const find = (input: Record<string, unknown>) => s.find(S.FindInput.parse(input));
const seen = (input: Record<string, unknown>) => s.seenAt(S.SeenAtInput.parse(input), 'mcp');
const history = (entity_name: string) => s.history(S.LocationHistoryInput.parse({ entity_name }));
const stored = (id: number) =>
  db.prepare('SELECT confidence, last_confirmed_ts, active FROM locations WHERE id = ?').get(id);

describe('spatial memory', () => {
  it('locates an object in a container; both are entities', () => {
    const r = locate({ entity_name: 'car keys', container_name: 'kitchen drawer' });
    expect(r).toMatchObject({
      action: 'added',
      previous_container: null,
      entity_name: 'car keys',
      container_name: 'kitchen drawer',
    });
    const e = createEntitiesRepo(db, clock);
    expect(e.find('car keys')!.type).toBe('object');
    expect(e.find('kitchen drawer')!.type).toBe('unknown'); // a drawer is no room: nothing invents its type
    locate({ entity_name: 'passport', container_name: 'study', container_type: 'room' });
    expect(e.find('study')!.type).toBe('room');
    expect(db.prepare('SELECT container_id FROM locations WHERE id = ?').get(r.id)).toEqual({
      container_id: e.find('kitchen drawer')!.id,
    });
    expect(find({ entity_name: 'car keys' })).toMatchObject({
      found: true,
      container_name: 'kitchen drawer',
      confidence: 1,
      age_seconds: 0,
      age_text: 'just now',
    });
    expect(s.current('Car Keys')).toMatchObject({ entity_name: 'car keys', container_name: 'kitchen drawer' });
    expect(s.current('keys')).toBeUndefined();
    expect(() => locate({ entity_name: 'box', container_name: 'Box' })).toThrow(/container_name/);
  });

  it('re-confirms on locate to the same container (confidence = max, age reset)', () => {
    const a = locate({ entity_name: 'car keys', container_name: 'kitchen drawer', confidence: 0.6 });
    clock.advance(5 * HOUR);
    const b = locate({ entity_name: 'car keys', container_name: 'Kitchen Drawer', confidence: 0.8 });
    expect(b).toMatchObject({ id: a.id, action: 'confirmed', previous_container: 'kitchen drawer' });
    expect(stored(a.id)).toEqual({ confidence: 0.8, last_confirmed_ts: clock.now(), active: 1 });
    locate({ entity_name: 'car keys', container_name: 'kitchen drawer', confidence: 0.5 });
    expect(stored(a.id)).toMatchObject({ confidence: 0.8 });
    expect(db.prepare('SELECT count(*) AS n FROM locations').get()).toEqual({ n: 1 });
  });

  it('archives the current row on a move; history is newest first', () => {
    const a = locate({ entity_name: 'car keys', container_name: 'kitchen drawer' });
    clock.advance(HOUR);
    const b = locate({ entity_name: 'car keys', container_name: 'hallway table', note: 'under the mail' });
    expect(b).toMatchObject({ action: 'moved', previous_container: 'kitchen drawer' });
    expect(b.id).not.toBe(a.id);
    expect(stored(a.id)).toMatchObject({ active: 0 });
    clock.advance(HOUR);
    locate({ entity_name: 'car keys', container_name: 'coat pocket' });
    const h = history('car keys');
    expect(h.locations.map((l) => [l.container_name, l.active])).toEqual([
      ['coat pocket', true],
      ['hallway table', false],
      ['kitchen drawer', false],
    ]);
    expect(h.locations[1].note).toBe('under the mail');
    expect(h.locations[0].effective_confidence).toBe(1);
    expect(find({ query: 'where are my car keys?' }).container_name).toBe('coat pocket');
    expect(
      db
        .prepare("SELECT op FROM audit WHERE op LIKE 'location.%' ORDER BY id")
        .all()
        .map((r: any) => r.op),
    ).toEqual(['location.add', 'location.move', 'location.move']);
  });

  it('computes decay on read: equal on repeated reads, half at the half-life, floored at 0.05', () => {
    const { id } = locate({ entity_name: 'passport', container_name: 'filing cabinet' });
    clock.advance(24 * HOUR);
    const first = find({ entity_name: 'passport' });
    const second = find({ entity_name: 'passport' });
    expect(first.confidence).toBe(0.5);
    expect(second).toEqual(first);
    expect(stored(id)).toMatchObject({ confidence: 1 });
    clock.advance(24 * HOUR);
    expect(find({ entity_name: 'passport' }).confidence).toBe(0.25); // the seed's compounding hit the floor after ~14 h
    clock.advance(200 * HOUR);
    expect(find({ entity_name: 'passport' })).toMatchObject({ confidence: 0.05, age_text: '1 week ago' });
    s = service(12);
    clock.set(clock.now() - 224 * HOUR);
    expect(find({ entity_name: 'passport' }).confidence).toBe(0.25);
  });

  it('seen_at re-confirms: +0.10 capped at 1, age reset; elsewhere it moves', () => {
    const { id } = locate({ entity_name: 'umbrella', container_name: 'hallway closet', confidence: 0.75 });
    clock.advance(24 * HOUR);
    expect(find({ entity_name: 'umbrella' }).confidence).toBe(0.375);
    expect(seen({ entity_name: 'umbrella' })).toMatchObject({
      action: 'confirmed',
      confidence: 0.85,
      container_name: 'hallway closet',
    });
    expect(stored(id)).toEqual({ confidence: 0.85, last_confirmed_ts: clock.now(), active: 1 });
    seen({ entity_name: 'umbrella', container_name: 'hallway closet' });
    expect(seen({ entity_name: 'umbrella' }).confidence).toBe(1);
    const moved = seen({ entity_name: 'umbrella', container_name: 'car trunk' });
    expect(moved).toMatchObject({ action: 'moved', previous_container: 'hallway closet', confidence: 1 });
    expect(() => seen({ entity_name: 'scissors' })).toThrow(/no known location/);
    expect(seen({ entity_name: 'scissors', container_name: 'desk' })).toMatchObject({ action: 'added' });
  });

  it('answers "where are my keys" with the place, confidence and age in words', () => {
    locate({ entity_name: 'car keys', container_name: 'kitchen drawer' });
    clock.advance(2 * HOUR);
    for (const q of [
      'where are my keys',
      'where are my keys?',
      'my keys',
      'keys',
      'the car keys',
      'Where are the CAR KEYS?',
    ]) {
      const r = find({ query: q });
      expect(r, q).toMatchObject({
        found: true,
        entity_name: 'car keys',
        container_name: 'kitchen drawer',
        age_seconds: 7200,
        age_text: '2 hours ago',
      });
      expect(r.confidence).toBeCloseTo(2 ** (-2 / 24), 4);
      expect(r.result).toContain('kitchen drawer');
      expect(r.result).toContain('2 hours ago');
    }
    expect(find({ entity_name: 'keys' }).entity_name).toBe('car keys');
    locate({ entity_name: 'reading glasses', container_name: 'nightstand' });
    expect(find({ query: 'where did I leave my glasses?' })).toMatchObject({
      found: true,
      entity_name: 'reading glasses',
      container_name: 'nightstand',
    });
  });

  it('offers candidates when a question fits several objects', () => {
    locate({ entity_name: 'car keys', container_name: 'kitchen drawer' });
    locate({ entity_name: 'house keys', container_name: 'hook by the door' });
    const r = find({ query: 'where are my keys?' });
    expect(r).toMatchObject({ found: false, entity_name: null, container_name: null, confidence: null });
    expect(r.candidates.map((c) => [c.entity_name, c.container_name]).sort()).toEqual([
      ['car keys', 'kitchen drawer'],
      ['house keys', 'hook by the door'],
    ]);
    expect(r.result).toMatch(/^Which one/);
    expect(find({ query: 'where are my car keys' })).toMatchObject({ found: true, entity_name: 'car keys' });
    expect(find({ entity_name: 'house keys' })).toMatchObject({ found: true, container_name: 'hook by the door' });
  });

  it('says plainly when nothing matches', () => {
    locate({ entity_name: 'car keys', container_name: 'kitchen drawer' });
    const r = find({ query: 'where is my bike?' });
    expect(r).toMatchObject({ found: false, candidates: [], entity_name: null });
    expect(r.result).toMatch(/don't know where/);
    expect(S.FindInput.safeParse({}).success).toBe(false);
  });

  it('keeps the newer sighting when an older one arrives (replayed MQTT)', () => {
    const a = locate({
      entity_name: 'Anna',
      entity_type: 'person',
      container_name: 'Work',
      container_type: 'place',
      ts: clock.now() - 60,
    });
    expect(stored(a.id)).toMatchObject({ last_confirmed_ts: clock.now() - 60 });
    const old = locate({ entity_name: 'Anna', container_name: 'Home', ts: clock.now() - 3600 });
    expect(old).toMatchObject({ action: 'stale', container_name: 'Work' });
    expect(find({ entity_name: 'Anna' }).container_name).toBe('Work');
    const future = locate({ entity_name: 'Anna', container_name: 'Work', ts: clock.now() + 999 });
    expect(stored(future.id)).toMatchObject({ last_confirmed_ts: clock.now() });
  });

  it('location_history matches loosely and 404s with suggestions', () => {
    locate({ entity_name: 'car keys', container_name: 'kitchen drawer' });
    locate({ entity_name: 'house keys', container_name: 'hook' });
    expect(history('car keys').entity_name).toBe('car keys');
    expect(history('my car keys').locations).toHaveLength(1);
    expect(() => history('keys')).toThrow(/Did you mean: (car|house) keys, (car|house) keys/);
    expect(() => history('bike')).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});
