/**
 * What a destructive operation on an entity (delete, forget, merge away) checks before it runs
 * (issue 35 item 4, SECURITY.md "Round three: identity and sync"): a page or a client that previewed
 * one entity must not destroy another.
 *
 * - `version`: what the preview showed — the entity's id, name, type, other names and how many of
 *   each kind of thing it holds (readings excepted: a sensor's count grows every few seconds). A
 *   merge into it, a new fact or a rename since the preview changes it.
 * - An alias names the entity it points to, so "forget Bryan" after Bryan was merged into Brian
 *   would destroy Brian: a name that is not the entity's own is refused (409 naming the real
 *   entity) unless the caller confirms that entity's own name, or gives the id it previewed.
 */
import { createHash } from 'node:crypto';
import { HubError } from '../../lib/errors.js';
import { nameKey } from '../../lib/names.js';
import type { EntityRow } from './entities.repo.js';

/** The version of an entity as a preview saw it (see above). */
export function entityVersion(e: EntityRow, counts: Record<string, number>, aliases: readonly string[]): string {
  const held = Object.entries(counts)
    .filter(([k, n]) => k !== 'readings' && n > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const names = aliases.map(nameKey).sort();
  return createHash('sha256')
    .update(JSON.stringify([e.id, e.name, e.type, names, held]))
    .digest('hex')
    .slice(0, 16);
}

/** Whether `asked` is the entity's own name (not one of its aliases). */
export const ownName = (e: EntityRow, asked: string) => nameKey(e.name) === nameKey(asked);

/** `"Bryan" is another name of Brian: ` when the name asked for is an alias (a preview says whom it means). */
export const viaAliasPrefix = (e: EntityRow, asked: string) =>
  ownName(e, asked) ? '' : `"${asked}" is another name of ${e.name}: `;

/**
 * Refuses to destroy `e` when it was named by an alias and the caller neither confirmed `e`'s own
 * name nor gave the id it previewed. `what` says what would happen, e.g. "deleting it would delete".
 */
export function refuseAlias(
  e: EntityRow,
  asked: string,
  field: string,
  what: string,
  opts: { confirm?: string; previewedId?: number; holds: string },
): void {
  if (ownName(e, asked)) return;
  if (opts.previewedId === e.id) return;
  if (opts.confirm !== undefined && nameKey(opts.confirm) === nameKey(e.name)) return;
  const wrong = opts.confirm !== undefined ? ` (confirm "${opts.confirm}" is not its name)` : '';
  throw new HubError(
    'conflict',
    `${field}: "${asked}" is another name of ${e.name}, not an entity of its own${wrong}; ${what} ${e.name} with ${opts.holds}. ` +
      `Nothing was changed. To drop only the name: POST /unalias {"alias": "${asked}"}; to go ahead with ${e.name}, name it ("${e.name}") or add confirm: "${e.name}"`,
  );
}

/**
 * Refuses when the entity a name resolves to now is not the one the caller previewed: another id
 * (the previewed one was merged, renamed away or deleted since) or another version.
 */
export function refuseStale(
  e: EntityRow,
  asked: string,
  field: { id: string; version: string },
  opts: { previewedId?: number; previewedVersion?: string; version: () => string; holds: () => string },
): void {
  if (opts.previewedId !== undefined && opts.previewedId !== e.id)
    throw new HubError(
      'conflict',
      `${field.id}: the entity you previewed (id ${opts.previewedId}) is not the one "${asked}" names now: ` +
        `${ownName(e, asked) ? `${e.name} (id ${e.id})` : `"${asked}" is now another name of ${e.name} (id ${e.id}) — merged or renamed since`}. ` +
        'Nothing was changed; look again before you confirm',
    );
  if (opts.previewedVersion !== undefined && opts.previewedVersion !== opts.version())
    throw new HubError(
      'conflict',
      `${field.version}: ${e.name} changed since the preview (it now holds ${opts.holds()}); nothing was changed — look again before you confirm`,
    );
}
