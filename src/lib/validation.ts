/** One wording for validation errors at every door: "<field>: <what is wrong>". */
import type { z } from 'zod';
import { HubError } from './errors.js';

export function describeIssues(issues: readonly z.core.$ZodIssue[] | { instancePath?: string; message?: string; keyword?: string; params?: Record<string, unknown> }[], root = 'body'): string {
  const first = issues[0] as { path?: PropertyKey[]; instancePath?: string; message?: string; code?: string; keyword?: string; keys?: string[]; params?: { keys?: string[] } };
  if (!first) return `${root}: invalid`;
  const path = first.path ? first.path.map(String).join('.') : (first.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const keys = first.keys ?? first.params?.keys;
  const code = first.code ?? first.keyword;
  if (code === 'unrecognized_keys' && keys?.length) return `${[path, keys[0]].filter(Boolean).join('.')}: unknown field`;
  let message = first.message ?? 'invalid';
  // zod says "Invalid input: expected string, received undefined" for a missing field; say it plainly.
  if (/received undefined$/.test(message)) message = 'required';
  return `${path || root}: ${message}`;
}

/** Parses with a shared schema, or throws HubError('invalid') naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, data: unknown, root = 'input'): z.infer<S> {
  const r = schema.safeParse(data);
  if (!r.success) throw new HubError('invalid', describeIssues(r.error.issues, root));
  return r.data;
}
