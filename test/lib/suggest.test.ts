import { describe, expect, it } from 'vitest';
import { closestFields } from '../../src/lib/suggest.js';

const REMEMBER = [
  'entity_name',
  'fact',
  'category',
  'confidence',
  'source',
  'source_trust',
  'entity_type',
  'fact_key',
  'valid_from',
];
const SCHEDULE = ['entity_name', 'title', 'start_ts', 'end_ts', 'recurrence', 'meta', 'entity_type'];
const described = (f: string) =>
  f === 'recurrence' ? 'repeat rule: an RFC 5545 RRULE such as "FREQ=WEEKLY;BYDAY=TU"' : undefined;

describe('closestFields (did you mean …?)', () => {
  it.each([
    ['catgory', REMEMBER, ['category']],
    ['categroy', REMEMBER, ['category']],
    ['entityName', REMEMBER, ['entity_name']],
    ['Entity-Name', REMEMBER, ['entity_name']],
    ['entity', REMEMBER, ['entity_name', 'entity_type']],
    ['factkey', REMEMBER, ['fact_key']],
    ['rrule', SCHEDULE, ['recurrence']],
    ['unti', ['entity_name', 'metric', 'value', 'unit', 'source', 'entity_type', 'ts'], ['unit']],
    ['startts', SCHEDULE, ['start_ts']],
  ])('%s → %j', (key, known, expected) => {
    expect(closestFields(key, known, described)).toEqual(expected);
  });

  it('guesses nothing rather than something far-fetched, and nothing for a huge key', () => {
    for (const key of ['zzz', 'colour', 'x', 'meta_data_blob', 'a'.repeat(10_000)])
      expect(closestFields(key, REMEMBER, described), key).toEqual([]);
  });
});
