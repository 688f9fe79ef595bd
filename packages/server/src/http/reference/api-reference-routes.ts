import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Scalar } from '@scalar/hono-api-reference';
import type { Hono } from 'hono';

/** Where the page loads its script from: this server, never a CDN (the page works offline). */
export const API_REFERENCE_SCRIPT_PATH = '/reference/standalone.js';

interface ScriptBody {
  plain: Buffer;
  gzip: Buffer;
}

let script: ScriptBody | undefined;

/** The browser bundle of the installed, pinned `@scalar/api-reference`, read and gzipped once. */
function scriptBody(): ScriptBody {
  if (!script) {
    const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
    const plain = readFileSync(join(dirname(entry), 'browser', 'standalone.js'));
    script = { plain, gzip: gzipSync(plain) };
  }
  return script;
}

/**
 * The API reference page (`/reference`, Scalar over `/openapi.json`) and the script it runs, served
 * from the installed package with a day's cache and gzip when the client accepts it — so the page
 * renders with no internet access.
 */
export function registerApiReferenceRoutes(app: Hono<any>, openApiPath: string): void {
  app.get(
    '/reference',
    Scalar({
      url: openApiPath,
      pageTitle: 'Awaken API reference',
      cdn: API_REFERENCE_SCRIPT_PATH,
      // the system's fonts, not a font CDN; no developer toolbar on a deployed server
      withDefaultFonts: false,
      showDeveloperTools: 'never',
    }),
  );
  app.get(API_REFERENCE_SCRIPT_PATH, (c) => {
    const body = scriptBody();
    const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    c.header('content-type', 'text/javascript; charset=utf-8');
    c.header('cache-control', 'public, max-age=86400');
    c.header('vary', 'accept-encoding');
    if (gzip) c.header('content-encoding', 'gzip');
    return c.body(new Uint8Array(gzip ? body.gzip : body.plain));
  });
}
