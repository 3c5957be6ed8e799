/**
 * Entity identity, in one place. Every door's `EntityName` schema stores `normaliseName(text)`;
 * every lookup, cache and the `entities.name_key` column use `nameKey(name)`. SQLite's NOCASE
 * folds ASCII only, so no SQL collation decides identity: the key is computed here and compared
 * with `=` (and indexed) in SQL.
 *
 * - normaliseName: format characters (Unicode category Cf: zero-width space/joiners, bidi
 *   overrides and isolates, BOM, soft hyphen) removed, then NFC, then trimmed — so NFC/NFD,
 *   zero-width and bidi spellings of "Zoë" are one name. Case is kept for display.
 * - nameKey: a full case fold of that, approximated as upper- then lower-casing (ß → ss,
 *   Kelvin sign K → k, final ς → σ, Ä → ä), NFC again — the same in every process and after a restart.
 */
const FORMAT_CHARS = /\p{Cf}/gu;
/** Printable ASCII: no format characters, already NFC, and upper→lower folds as plain lower-casing. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

/** The stored (display) form of an entity name. */
export function normaliseName(name: string): string {
  return name.replace(FORMAT_CHARS, '').normalize('NFC').trim();
}

/** The identity of a name: two names are the same entity exactly when their keys are equal. */
export function nameKey(name: string): string {
  if (PLAIN_ASCII.test(name)) return name.trim().toLowerCase(); // the ingest hot path: same result, a third of the cost
  return normaliseName(name).toUpperCase().toLowerCase().normalize('NFC');
}
