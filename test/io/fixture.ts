/**
 * The memory-mcp fixture, `test/fixtures/memory-mcp/household.db` (its README says how the seed server
 * wrote it). It lives in the repository, so a fresh clone anywhere runs the import tests; tests copy it
 * to a temp dir before opening it (SQLite writes -wal/-shm files beside a database it opens).
 */
import { fileURLToPath } from 'node:url';

export const FIXTURE = fileURLToPath(new URL('../fixtures/memory-mcp/household.db', import.meta.url));
