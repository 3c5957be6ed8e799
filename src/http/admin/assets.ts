/**
 * Every script and style the admin UI uses, served by the hub from npm packages and assets/admin/
 * (a Pi is often offline: no CDN, no external font). Read and gzipped once at start-up.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const require = createRequire(import.meta.url);
const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** `assets/admin/` at the package root, seen from src/http/admin (vitest) or dist/src/http/admin (built). */
function own(file: string): string {
  const candidates = ['../../../assets/admin/', '../../../../assets/admin/'].map((p) => fileURLToPath(new URL(p + file, import.meta.url)));
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`admin UI asset ${file} is missing (looked in ${candidates.join(', ')}); reinstall hearth`);
  return found;
}

const SOURCES: Record<string, [() => string, string]> = {
  'admin.css': [() => own('admin.css'), CSS],
  'admin.js': [() => own('admin.js'), JS],
  'charts.js': [() => own('charts.js'), JS],
  'stream.js': [() => own('stream.js'), JS],
  'graph.js': [() => own('graph.js'), JS],
  'htmx.min.js': [() => require.resolve('htmx.org/dist/htmx.min.js'), JS],
  'uPlot.iife.min.js': [() => require.resolve('uplot/dist/uPlot.iife.min.js'), JS],
  'uPlot.min.css': [() => require.resolve('uplot/dist/uPlot.min.css'), CSS],
  'cytoscape.min.js': [() => require.resolve('cytoscape/dist/cytoscape.min.js'), JS],
};

export function loadAssets() {
  const files = new Map<string, { type: string; body: Buffer; gz: Buffer }>();
  for (const [name, [path, type]] of Object.entries(SOURCES)) {
    const body = readFileSync(path());
    files.set(name, { type, body, gz: gzipSync(body, { level: 9 }) });
  }
  return {
    names: () => [...files.keys()],
    send(req: FastifyRequest, reply: FastifyReply, name: string) {
      const f = files.get(name);
      if (!f) return reply.code(404).type('text/plain; charset=utf-8').send('no such asset');
      const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      reply.type(f.type).header('cache-control', 'private, max-age=3600').header('vary', 'accept-encoding');
      if (gzip) reply.header('content-encoding', 'gzip');
      return reply.send(gzip ? f.gz : f.body);
    },
  };
}
