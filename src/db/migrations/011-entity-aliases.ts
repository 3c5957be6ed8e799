/**
 * Entity aliases (SPEC §3: an entity may have other names — `person.anna`, "Anna", "Mum"). One row
 * per other name: `name_key` is `nameKey(alias)` (lib/names.ts), `alias` the spelling to display,
 * `source` who set it (`manual`, `homeassistant`). A key names at most one entity: UNIQUE among
 * aliases, and the triggers below keep it apart from every `entities.name_key`, so "the entity a name
 * means" is always one row of `entities` or one row here, never both (entities.repo.ts `find`).
 * An alias dies with its entity (CASCADE) and moves with it in a merge (voices/merge.ts moves every
 * column that references entities).
 */
/**
 * The two triggers, on insert and on a change of `name_key`, that refuse a key of `table` which
 * `other` already holds: a UNIQUE across the two tables. It spells out, to the byte, the four
 * CREATE TRIGGER statements this migration has always run.
 */
const keyFree = (trigger: string, table: string, other: string, refusal: string) =>
  [
    ['insert', 'INSERT'],
    ['update', 'UPDATE OF name_key'],
  ]
    .map(
      ([suffix, event]) => `CREATE TRIGGER ${trigger}_${suffix} BEFORE ${event} ON ${table}
  WHEN EXISTS (SELECT 1 FROM ${other} WHERE name_key = NEW.name_key)
  BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: ${refusal}'); END;`,
    )
    .join('\n');

export default `
CREATE TABLE entity_aliases (
  name_key   TEXT PRIMARY KEY,
  entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  alias      TEXT NOT NULL,
  source     TEXT NOT NULL,
  created    REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX entity_aliases_entity ON entity_aliases(entity_id);

${keyFree('entity_aliases_key_free', 'entity_aliases', 'entities', 'an alias may not be the name of an entity')}
${keyFree('entities_key_not_alias', 'entities', 'entity_aliases', 'an entity name may not be an alias of another entity')}
`;
