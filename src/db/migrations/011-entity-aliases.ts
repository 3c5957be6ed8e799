/**
 * Entity aliases (SPEC §3: an entity may have other names — `person.anna`, "Anna", "Mum"). One row
 * per other name: `name_key` is `nameKey(alias)` (lib/names.ts), `alias` the spelling to display,
 * `source` who set it (`manual`, `homeassistant`). A key names at most one entity: UNIQUE among
 * aliases, and the triggers below keep it apart from every `entities.name_key`, so "the entity a name
 * means" is always one row of `entities` or one row here, never both (entities.repo.ts `find`).
 * An alias dies with its entity (CASCADE) and moves with it in a merge (voices/merge.ts moves every
 * column that references entities).
 */
export default `
CREATE TABLE entity_aliases (
  name_key   TEXT PRIMARY KEY,
  entity_id  INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  alias      TEXT NOT NULL,
  source     TEXT NOT NULL,
  created    REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX entity_aliases_entity ON entity_aliases(entity_id);

CREATE TRIGGER entity_aliases_key_free_insert BEFORE INSERT ON entity_aliases
  WHEN EXISTS (SELECT 1 FROM entities WHERE name_key = NEW.name_key)
  BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: an alias may not be the name of an entity'); END;
CREATE TRIGGER entity_aliases_key_free_update BEFORE UPDATE OF name_key ON entity_aliases
  WHEN EXISTS (SELECT 1 FROM entities WHERE name_key = NEW.name_key)
  BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: an alias may not be the name of an entity'); END;
CREATE TRIGGER entities_key_not_alias_insert BEFORE INSERT ON entities
  WHEN EXISTS (SELECT 1 FROM entity_aliases WHERE name_key = NEW.name_key)
  BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: an entity name may not be an alias of another entity'); END;
CREATE TRIGGER entities_key_not_alias_update BEFORE UPDATE OF name_key ON entities
  WHEN EXISTS (SELECT 1 FROM entity_aliases WHERE name_key = NEW.name_key)
  BEGIN SELECT RAISE(ABORT, 'UNIQUE constraint failed: an entity name may not be an alias of another entity'); END;
`;
