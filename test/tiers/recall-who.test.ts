/**
 * Whom a question is about (src/tiers/memory/who.ts): names, aliases, roles and the speaker's "I"/"my",
 * and the question as recall searches it — each of those words replaced by the entity's own name.
 * Lookups are a small table here; the hub-level behaviour is in test/tiers/ask/memory-answers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readWho, type WhoDeps } from '../../src/tiers/memory/who.js';

const known = new Map([
  ['jadwiga', { id: 1, name: 'Jadwiga', type: 'person' }],
  ['grandma', { id: 1, name: 'Jadwiga', type: 'person' }],
  ['brian', { id: 2, name: 'Brian', type: 'person' }],
  ['anna', { id: 3, name: 'Anna', type: 'person' }],
  ['kitchen', { id: 4, name: 'kitchen', type: 'room' }],
  ['helga', { id: 5, name: 'Helga', type: 'person' }],
]);
const deps: WhoDeps = {
  entityNamed: (n) => known.get(n.toLowerCase()),
  // Brian's wife is Anna; nobody else's is known.
  roles: (text, speaker) =>
    [...text.matchAll(/\bmy wife\b/gi)].map((m) => ({
      start: m.index,
      end: m.index + m[0].length,
      names: speaker === 'Brian' ? ['Anna'] : [],
    })),
};

describe('readWho', () => {
  it('an alias is searched as the name it stands for, possessive kept', () => {
    expect(readWho(deps, 'when does grandma come to stay?')).toMatchObject({
      query: 'when does Jadwiga come to stay?',
      about: ['Jadwiga'],
    });
    expect(readWho(deps, "what is Grandma's favourite cake").query).toBe("what is Jadwiga's favourite cake");
    const { named } = readWho(deps, 'when does grandma come to stay?');
    expect(named.map((n) => n.id)).toEqual([1]);
    expect(named[0].runs).toEqual([['jadwiga'], ['grandma']]);
  });

  it('an alias that is a kinship word names a person even when the entity has no type', () => {
    const untyped: WhoDeps = {
      entityNamed: (n) => (/^(grandma|nan)$/i.test(n) ? { id: 9, name: 'Jadwiga', type: 'unknown' } : undefined),
      roleWord: (w) => /^(grandma|mum)$/i.test(w),
    };
    expect(readWho(untyped, 'When does grandma come to stay?')).toMatchObject({
      query: 'When does Jadwiga come to stay?',
      about: ['Jadwiga'],
    });
    // Not a kinship word, lower case, no type: not a who-name (named.ts), left as said.
    expect(readWho(untyped, 'when does nan come to stay?').about).toEqual([]);
  });

  it('an own name, or a room, is left as it was said', () => {
    expect(readWho(deps, "when is Anna's birthday")).toMatchObject({
      query: "when is Anna's birthday",
      about: ['Anna'],
    });
    expect(readWho(deps, 'how warm is the kitchen')).toEqual({
      named: [],
      query: 'how warm is the kitchen',
      about: [],
    });
  });

  it('the speaker is "I", "me", "my"; without a speaker they stay', () => {
    expect(readWho(deps, 'when is my dentist appointment', 'Brian')).toMatchObject({
      query: "when is Brian's dentist appointment",
      about: ['Brian'],
    });
    expect(readWho(deps, "what am I allergic to? I'm sure it's something", 'Brian').query).toBe(
      "what am Brian allergic to? Brian is sure it's something",
    );
    expect(readWho(deps, 'when is my dentist appointment')).toMatchObject({
      query: 'when is my dentist appointment',
      about: [],
    });
    // An unknown speaker is nobody.
    expect(readWho(deps, 'when is my dentist appointment', 'Zoe').about).toEqual([]);
  });

  it('a role is the person the relations name; one that names nobody is not the speaker', () => {
    expect(readWho(deps, "when is my wife's birthday", 'Brian')).toMatchObject({
      query: "when is Anna's birthday",
      about: ['Anna'],
    });
    // The owner named in a role phrase is not whom it asks about.
    const chidi = readWho(
      {
        ...deps,
        roles: (text) => (text.startsWith("Brian's wife") ? [{ start: 0, end: 12, names: ['Anna'] }] : []),
      },
      "Brian's wife's birthday",
    );
    expect(chidi).toMatchObject({ query: "Anna's birthday", about: ['Anna'] });
    expect(chidi.named.map((n) => n.id)).toEqual([3]);
    expect(readWho(deps, "when is my wife's birthday", 'Helga')).toMatchObject({
      query: "when is my wife's birthday",
      about: [],
    });
  });
});
