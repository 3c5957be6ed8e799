import { describe, expect, it } from 'vitest';
import { parseInput as check } from '../../src/lib/validation.js';
import { EndRelationInput } from '../../src/tiers/entities/manage.schemas.js';
import { CloseSessionInput } from '../../src/tiers/episodic/episodic.schemas.js';

/** Found by the HTTP fuzz: z.coerce.number() read `true` and `[1]` as 1, so {"relation_id": true} ended relation 1. */
describe('row ids in a body', () => {
  it('take a positive whole number or its digits, nothing that only coerces to one', () => {
    expect(check(EndRelationInput, { relation_id: 3 })).toEqual({ relation_id: 3 });
    expect(check(EndRelationInput, { relation_id: '3' })).toEqual({ relation_id: 3 });
    for (const v of [true, [1], 0, -1, 1.5, '1.5', '', null, { valueOf: 1 }])
      expect(() => check(EndRelationInput, { relation_id: v }), JSON.stringify(v)).toThrow(/relation_id/);
    expect(() => check(CloseSessionInput, { session_id: true })).toThrow(/session_id/);
  });
});
