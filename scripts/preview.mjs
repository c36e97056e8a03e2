#!/usr/bin/env node
// npm run preview [-- --port N]: bundles the preview page's entry
// (preview/main.ts: the stand-in of Foundry booted in the browser, the system,
// a fixture combat; esbuild, node: modules replaced by preview/shims/) into
// build/preview/main.js, and the odds' Web Worker (src/odds-worker.ts, as
// scripts/build.mjs builds dist/odds-worker.js) into build/preview/odds-worker.js,
// and serves them with the repository's templates/, lang/, styles/ and
// system.json on http://localhost:<port>/ (default 30010). The worker is served
// where the odds dialog asks for it outside dist/chunks/ (its fallback,
// systems/ten-segments/odds-worker.js, from the page's root).
// The browser checks (tests/browser/) and the benchmark import
// buildPreview and startPreviewServer from here.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT = join(ROOT, 'build/preview/main.js');
const WORKER_OUT = join(ROOT, 'build/preview/odds-worker.js');
/** Where the odds dialog asks for its worker when its code is not in dist/chunks/ (src/apps/odds-dialog.ts oddsWorkerUrl). */
const WORKER_PATH = '/systems/ten-segments/odds-worker.js';
const SHIMS = ['async_hooks', 'timers', 'fs', 'path', 'url'];

/** Bundle preview/main.ts for the browser (one file: the procedures' import() inlined), and the odds' worker beside it. */
export async function buildPreview() {
  await Promise.all([buildPage(), buildOddsWorker()]);
  return OUT;
}

/** What both of the page's bundles are: one ES module for the browser, with its source map. */
const BROWSER = { bundle: true, format: 'esm', platform: 'browser', target: 'es2022', sourcemap: 'inline', logLevel: 'warning' };

/** The odds' Web Worker, one ES module (the engine and all five procedures), as scripts/build.mjs builds it, unminified. */
async function buildOddsWorker() {
  await build({ ...BROWSER, entryPoints: [join(ROOT, 'src/odds-worker.ts')], outfile: WORKER_OUT });
}

async function buildPage() {
  await build({
    ...BROWSER,
    entryPoints: [join(ROOT, 'preview/main.ts')],
    outfile: OUT,
    define: { 'process.env.NODE_ENV': '"development"' },
    plugins: [
      {
        name: 'node-shims',
        setup(b) {
          b.onResolve({ filter: /^node:/ }, (args) => {
            const name = args.path.slice('node:'.length);
            if (!SHIMS.includes(name)) return { errors: [{ text: `node:${name} has no browser shim in preview/shims/` }] };
            return { path: join(ROOT, `preview/shims/${name}.ts`) };
          });
        },
      },
    ],
  });
}

const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.hbs': 'text/plain', '.html': 'text/html', '.svg': 'image/svg+xml', '.png': 'image/png', '.webp': 'image/webp' };
/** What the server serves, under the repository's root: nothing else. */
const SERVED = [/^\/build\/preview\//, /^\/preview\//, /^\/templates\//, /^\/tests\/standin\/core-templates\//, /^\/lang\//, /^\/styles\//, /^\/assets\//, /^\/system\.json$/];

async function page() {
  const html = await readFile(join(ROOT, 'preview/index.html'), 'utf8');
  const manifest = JSON.parse(await readFile(join(ROOT, 'system.json'), 'utf8'));
  const links = (manifest.styles ?? []).map((href) => `<link rel="stylesheet" href="/${href}">`).join('\n');
  return html.replace('<!--STYLES-->', links);
}

/** Serve the preview on `port` (0: a free one). Resolves with its url and close(). */
export function startPreviewServer({ port = 30010, host = '127.0.0.1' } = {}) {
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path === '/' || path === '/index.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(await page());
        return;
      }
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return;
      }
      // Core's images (icons/svg/mystery-man.svg…): one placeholder portrait.
      if (path.startsWith('/icons/')) {
        res.writeHead(200, { 'content-type': 'image/svg+xml' });
        res.end(await readFile(join(ROOT, 'preview/token.svg')));
        return;
      }
      if (path === WORKER_PATH) {
        res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
        res.end(await readFile(WORKER_OUT));
        return;
      }
      const file = normalize(join(ROOT, path));
      if (!file.startsWith(ROOT + '/') || !SERVED.some((r) => r.test(path)) || !(await stat(file).catch(() => null))?.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      res.end(await readFile(file));
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolvePromise({ url: `http://${host}:${address.port}/`, port: address.port, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = i >= 0 ? Number(process.argv[i + 1]) : 30010;
  await buildPreview();
  const { url } = await startPreviewServer({ port });
  console.log(`Ten Segments preview: ${url}  (?n=200 · ?procedure=high-low · ?viewer=player · ?theme=light · ?steps=3 · ?sheet=fighter|magic-user|ogre|weapon|spell|armor|gear; Ctrl-C stops)`);
}
