/**
 * Reads Home Assistant YAML and renders its Jinja templates the way HA would, closely enough to
 * test what Hearth receives: `yaml` with HA's custom tags, `nunjucks` (Jinja-compatible) with
 * HA's `to_json`/`float`/`int` filters, and HA's rule that a rendered `data:` value that looks
 * like a number becomes a number (homeassistant/helpers/template.py `render_complex` →
 * `literal_eval`).
 */
import { readFileSync } from 'node:fs';
import nunjucks from 'nunjucks';
import { parseDocument, type Tags } from 'yaml';

/** `!secret name` resolves from `secrets`; `!include…` tags become a marker string. */
export function haYaml(file: string, secrets: Record<string, string> = {}): Record<string, any> {
  const customTags: Tags = [
    { tag: '!secret', resolve: (name: string) => secrets[name] ?? `<secret ${name}>` },
    ...['!include', '!include_dir_named', '!include_dir_list', '!include_dir_merge_named', '!env_var'].map((tag) => ({
      tag,
      resolve: (v: string) => `<${tag} ${v}>`,
    })),
  ];
  const doc = parseDocument(readFileSync(file, 'utf8'), { customTags, prettyErrors: true });
  if (doc.errors.length) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
  if (doc.warnings.length) throw new Error(`${file}: ${doc.warnings.map((e) => e.message).join('; ')}`);
  return doc.toJS() as Record<string, any>;
}

const env = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
env.addFilter('to_json', (v: unknown) => JSON.stringify(v));

export function render(template: string, vars: Record<string, unknown>): string {
  return env.renderString(template, vars);
}

/** A `data:` value as HA passes it on: rendered, then a number if it reads as one. */
export function renderData(data: Record<string, unknown>, vars: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => {
      if (typeof v !== 'string') return [k, v];
      const out = render(v, vars);
      return [k, out.trim() !== '' && Number.isFinite(Number(out)) ? Number(out) : out];
    }),
  );
}
