/**
 * Client-chosen names that Hearth keeps in its own stats (failing MQTT topics, reading sources) are
 * capped in length and in number, so a client cannot grow /health, /metrics or the log with them
 * (issue #10 item 11: 1,000 publishes with 64 KB topics made /health 61 MiB).
 */
export const MAX_NAME_CHARS = 120;
export const MAX_TRACKED_NAMES = 200;
/** The key everything past `MAX_TRACKED_NAMES` is counted under. */
export const OTHER = '(other)';

/** `name` cut to `max` characters (with "…"), never splitting a surrogate pair. */
export function capName(name: string, max = MAX_NAME_CHARS): string {
  if (name.length <= max) return name;
  return `${name.slice(0, max - 1).replace(/[\uD800-\uDBFF]$/, '')}…`;
}

/** The key to count `name` under in `counts`: capped, and `OTHER` once `max` names are tracked. */
export function trackedKey(counts: Record<string, unknown>, name: string, max = MAX_TRACKED_NAMES): string {
  const key = capName(name);
  return key in counts || Object.keys(counts).length < max ? key : OTHER;
}
