/**
 * check_intentions with WordNet (issue #25 item 6): a trigger said in other words — a synonym, not
 * "a kind of" — fires on the keyword path, with the same guards; keyword-only here, so the embedder
 * cannot be what fires it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sharedWordNet, type WordNet } from '../../src/ai/wordnet.js';
import sql from '../../src/db/migrations/005-prospective-spatial.js';
import { openDatabase, type Db } from '../../src/db/open.js';
import { manualClock } from '../../src/lib/clock.js';
import { createAuditRepo } from '../../src/tiers/audit/audit.repo.js';
import { createEntitiesRepo } from '../../src/tiers/entities/entities.repo.js';
import * as P from '../../src/tiers/prospective/prospective.schemas.js';
import { createProspectiveService } from '../../src/tiers/prospective/prospective.service.js';

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hearth-prospective-wn-'));
  db = openDatabase({ dataDir: dir });
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'intentions'").get()) db.exec(sql);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function fires(wordnet: WordNet | undefined, trigger: string, text: string): Promise<boolean> {
  const clock = manualClock();
  const svc = createProspectiveService({
    db,
    clock,
    embedder: null,
    entities: createEntitiesRepo(db, clock),
    audit: createAuditRepo(db, clock),
    wordnet,
  });
  const { id } = await svc.intend(
    P.IntendInput.parse({ entity_name: 'Anna', trigger_text: trigger, action_text: 'do the thing', once: false }),
  );
  const r = await svc.check(P.CheckIntentionsInput.parse({ text }));
  svc.dismiss(P.DismissIntentionInput.parse({ intention_id: id }));
  return r.triggered.some((t) => t.id === id);
}

describe('check_intentions through WordNet', () => {
  it('fires a trigger said with a synonym ("washer" for "washing machine")', async () => {
    expect(await fires(undefined, 'when the washing machine finishes', 'The washer just finished')).toBe(false);
    expect(await fires(sharedWordNet(), 'when the washing machine finishes', 'The washer just finished')).toBe(true);
  });

  it('keeps the guards: the opposite event, another day, and words that only share a kind stay quiet', async () => {
    const wn = sharedWordNet();
    expect(await fires(wn, 'when the washing machine finishes', "The washer hasn't finished")).toBe(false);
    expect(await fires(wn, 'when the washing machine finishes', 'The washer finished yesterday')).toBe(false);
    expect(await fires(wn, 'when the washing machine finishes', 'I just put the washing machine on')).toBe(false);
  });
});
