/**
 * `npm run docs:mcp`: writes docs/mcp-tools.md from the registered tools (scripts/lib/mcp-tools-doc.ts).
 * `--check` only compares, exiting 1 when the committed file is stale or a description is missing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { descriptionProblems, listHearthTools, renderToolsDoc } from './lib/mcp-tools-doc.js';

const FILE = 'docs/mcp-tools.md';
const tools = await listHearthTools();
const problems = descriptionProblems(tools);
for (const p of problems) console.error(`mcp-tools-doc: ${p}`);
const doc = renderToolsDoc(tools);
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(FILE, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (committed !== doc) console.error(`mcp-tools-doc: ${FILE} is stale; run npm run docs:mcp`);
  process.exit(committed === doc && !problems.length ? 0 : 1);
}
writeFileSync(FILE, doc);
console.log(`wrote ${FILE}: ${tools.length} tools`);
process.exit(problems.length ? 1 : 0);
