// The interactive API reference at /api/docs: Swagger UI from the swagger-ui-dist npm package,
// served by the edge (no CDN: it works offline), reading /api/openapi.json. Its online validator
// badge is off, so the page asks no other origin for anything.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { notFound } from '../../shared/errors.ts';
import type { Route } from '../router.ts';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Schedule calendar API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>
`;

/**
 * The page may run and style itself only from this server's files (no inline script, no eval),
 * fetch only the document, and be framed by nobody (clickjacking): `frame-ancestors 'none'`, with
 * X-Frame-Options for browsers that predate it. `data:` images are Swagger UI's icons in its CSS.
 */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
});

// A file of its own (not inline) so a Content-Security-Policy without 'unsafe-inline' allows it.
// "Try it out" sends to the host that served the page (the only one `connect-src 'self'` allows),
// whatever PUBLIC_BASE_URL the document names: opened at 127.0.0.1 or behind another name, it works.
const INIT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#reference', validatorUrl: null, deepLinking: true, tryItOutEnabled: false,
  requestInterceptor: (request) => {
    const url = new URL(request.url, window.location.href);
    if (url.origin !== window.location.origin) request.url = window.location.origin + url.pathname + url.search;
    return request;
  } });\n`;

export function docsRoutes(): Route[] {
  const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // Read and tagged once: the bundle is 1.5 MB, too large to hash per request.
  const loaded = new Map<string, Promise<{ raw: Buffer; etag: string }>>();
  const load = async (asset: string) => {
    const raw = await readFile(join(dist, asset));
    return { raw, etag: `"${createHash('sha1').update(raw).digest('base64url')}"` };
  };
  const tags = ['operations'];
  return [
    {
      method: 'get', path: '/api/docs', cacheControl: 'public, max-age=300',
      handler: () => ({ raw: PAGE, contentType: 'text/html; charset=utf-8', headers: { ...DOCS_PAGE_HEADERS } }),
      doc: { summary: 'Interactive API reference (Swagger UI, served from this server)', tags, content: { type: 'text/html' }, responses: { 200: 'HTML page' } },
    },
    {
      method: 'get', path: '/api/docs/:asset', cacheControl: 'public, max-age=86400',
      handler: async (ctx) => {
        const asset = ctx.params.asset ?? '';
        if (asset === 'init.js') return { raw: INIT, contentType: 'text/javascript; charset=utf-8' };
        const type = ASSETS[asset];
        if (!type) throw notFound();
        let file = loaded.get(asset);
        if (!file) loaded.set(asset, (file = load(asset)));
        return { ...(await file), contentType: type };
      },
      doc: { summary: 'A file of the reference page (swagger-ui-bundle.js, swagger-ui.css, init.js)', tags, content: { type: 'text/plain', schema: Type.String() }, responses: { 200: 'the file', 404: 'no such file' } },
    },
  ];
}
