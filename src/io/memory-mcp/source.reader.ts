/**
 * The memory-mcp file being imported (the seed's Python server's database), opened read-only: every
 * statement the importer runs on it. Table names come from the importer's own list, never the file.
 */
import Database from 'better-sqlite3';
import { invalid } from '../../lib/errors.js';
import type { Row } from './rows.js';

export interface SourceReader {
  /** The first entity row (earlier Hearth named a whole source by it). */
  firstEntity(): Row | undefined;
  /** A table's rows in rowid order; none when the file has no such table. */
  rows(table: string): Row[];
  /** The same, streamed: a year of readings need not sit in memory at once. */
  stream(table: string): Iterable<Row>;
  close(): void;
}

/** Opens `path` read-only; refuses (400) a file that is not SQLite or has no entities table. */
export function openSource(path: string): SourceReader {
  let src: Database.Database;
  try {
    src = new Database(path, { readonly: true, fileMustExist: true });
    src.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'memories'").get();
  } catch (e) {
    throw invalid(`db: ${path} is not a readable SQLite file (${(e as Error).message})`);
  }
  const table = src.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?");
  const has = (t: string) => !!table.get(t);
  if (!has('entities')) {
    src.close();
    throw invalid(`db: ${path} has no entities table; is it a memory-mcp database?`);
  }
  const all = (t: string) => src.prepare(`SELECT * FROM "${t}" ORDER BY rowid`);
  return {
    firstEntity: () =>
      src.prepare('SELECT id, name, created FROM entities ORDER BY id LIMIT 1').get() as Row | undefined,
    rows: (t) => (has(t) ? (all(t).all() as Row[]) : []),
    stream: (t) => (has(t) ? (all(t).iterate() as Iterable<Row>) : []),
    close: () => src.close(),
  };
}
