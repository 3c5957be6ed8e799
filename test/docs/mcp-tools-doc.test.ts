import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { listHearthTools, renderToolsDoc } from '../../scripts/lib/mcp-tools-doc.js';

const run = promisify(execFile);

describe('docs/mcp-tools.md', () => {
  it('is exactly what the registered tools generate (npm run docs:mcp)', async () => {
    const committed = readFileSync('docs/mcp-tools.md', 'utf8');
    expect(committed).toBe(renderToolsDoc(await listHearthTools()));
  });

  it("the generator's --check passes on the committed file (what CI can run)", async () => {
    const { stderr } = await run(process.execPath, ['dist/scripts/mcp-tools-doc.js', '--check']);
    expect(stderr).toBe('');
  });
});
