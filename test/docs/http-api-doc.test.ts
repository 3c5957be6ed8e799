import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildTestHub } from '../helpers/hub.js';

describe('docs/http-api.md', () => {
  it('every route it names exists (OpenAPI at /docs, or the MCP transports)', async () => {
    const hub = await buildTestHub();
    try {
      await hub.app.ready();
      const paths = Object.entries(
        (hub.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths,
      ).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
      const hidden = ['POST /mcp', 'GET /sse', 'POST /messages?sessionId=', 'GET /docs'];
      const named = [...readFileSync('docs/http-api.md', 'utf8').matchAll(/`(GET|POST) (\/[^`\s]*)`/g)].map(
        (m) => `${m[1]} ${m[2]}`,
      );
      expect(named.length).toBeGreaterThan(25);
      for (const r of named) expect(hidden.includes(r) || paths.includes(r.split('?')[0]), r).toBe(true);
    } finally {
      await hub.close();
    }
  });
});
