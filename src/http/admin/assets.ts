/**
 * Every script and style the admin UI uses, served by the hub from npm packages and assets/admin/
 * (a Pi is often offline: no CDN, no external font), through @fastify/static. Gzipped once at
 * start-up into a private temporary directory (`mkdtemp`, 0700, removed on close) that the plugin
 * serves with `preCompressed`; only the names below are served. The icons (`PUBLIC_ASSETS`, and
 * `/favicon.ico`) are served without a login: a browser asks for them before the login form is sent,
 * and they say nothing about the household.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

/** `assets/admin/` at the package root, seen from src/http/admin (vitest) or dist/src/http/admin (built). */
function own(file: string): string {
  const candidates = ['../../../assets/admin/', '../../../../assets/admin/'].map((p) =>
    fileURLToPath(new URL(p + file, import.meta.url)),
  );
  const found = candidates.find((c) => existsSync(c));
  if (!found)
    throw new Error(`admin UI asset ${file} is missing (looked in ${candidates.join(', ')}); reinstall hearth`);
  return found;
}

/** cose-base as cytoscape-fcose finds it, and layout-base as cose-base does (wherever npm placed them). */
const coseBase = () => createRequire(require.resolve('cytoscape-fcose')).resolve('cose-base/cose-base.js');
const layoutBase = () => createRequire(coseBase()).resolve('layout-base/layout-base.js');

const SOURCES: Record<string, () => string> = {
  'admin.css': () => own('admin.css'),
  'icon.svg': () => own('icon.svg'),
  'icon-192.png': () => own('icon-192.png'),
  'favicon.ico': () => own('favicon.ico'),
  'admin.js': () => own('admin.js'),
  'charts.js': () => own('charts.js'),
  'stream.js': () => own('stream.js'),
  'graph.js': () => own('graph.js'),
  'htmx.min.js': () => require.resolve('htmx.org/dist/htmx.min.js'),
  'uPlot.iife.min.js': () => require.resolve('uplot/dist/uPlot.iife.min.js'),
  'uPlot.min.css': () => require.resolve('uplot/dist/uPlot.min.css'),
  'cytoscape.min.js': () => require.resolve('cytoscape/dist/cytoscape.min.js'),
  // fcose (the graph's layout) and the two libraries it runs on, as UMD scripts setting globals
  'layout-base.js': layoutBase,
  'cose-base.js': coseBase,
  'cytoscape-fcose.js': () => require.resolve('cytoscape-fcose/cytoscape-fcose.js'),
};

/** Served before login (guard.ts lets these paths through). */
export const PUBLIC_PATHS = new Set([
  '/favicon.ico',
  '/admin/assets/icon.svg',
  '/admin/assets/icon-192.png',
  '/admin/assets/favicon.ico',
]);

export async function registerAssets(app: FastifyInstance): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hearth-admin-assets-'));
  try {
    for (const [name, path] of Object.entries(SOURCES)) {
      const body = readFileSync(path());
      writeFileSync(join(dir, name), body, { mode: 0o600 });
      writeFileSync(join(dir, `${name}.gz`), gzipSync(body, { level: 9 }), { mode: 0o600 });
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  app.addHook('onClose', async () => rmSync(dir, { recursive: true, force: true }));
  await app.register(fastifyStatic, {
    root: dir,
    prefix: '/admin/assets/',
    preCompressed: true,
    allowedPath: (path) => Object.hasOwn(SOURCES, path.replace(/^\//, '')),
    index: false,
    decorateReply: false,
    cacheControl: false,
    setHeaders: (res) => {
      res.setHeader('cache-control', 'private, max-age=3600');
      res.setHeader('vary', 'accept-encoding');
    },
  });
  // Where a browser looks for an icon when a page names none (a JSON answer, an error page).
  app.get('/favicon.ico', { schema: { hide: true } }, async (_req, reply) =>
    reply
      .header('cache-control', 'private, max-age=3600')
      .type('image/x-icon')
      .send(readFileSync(join(dir, 'favicon.ico'))),
  );
}
