/** Ordered schema migrations; `PRAGMA user_version` = how many have been applied. Append only. */
import memory from './001-memory.js';
import timeseries from './002-timeseries.js';
import patterns from './003-patterns.js';
import episodicWorking from './004-episodic-working.js';
import prospectiveSpatial from './005-prospective-spatial.js';
import sessionVocab from './006-session-vocab.js';
import counters from './007-counters.js';
import stableIds from './008-stable-ids.js';
import seriesTerms from './009-series-terms.js';
import voicesImport from './010-voices-import.js';
import entityAliases from './011-entity-aliases.js';
import type { Db } from '../open.js';

/** SQL, or a function for a step SQL alone cannot do (keys computed in JS, table rebuilds). */
export type Migration = string | ((db: Db) => void);

export const MIGRATIONS: readonly Migration[] = [
  memory,
  timeseries,
  patterns,
  episodicWorking,
  prospectiveSpatial,
  sessionVocab,
  counters,
  stableIds,
  seriesTerms,
  voicesImport,
  entityAliases,
];
