import { Hono } from 'hono';
import { STATIC_DIR, createStaticFiles, encodingFor } from './static-files';

/** Where the console is served and which API it talks to. */
export interface ConsoleOptions {
  /** The path the console is served under: `/` (default) or e.g. `/console` (no trailing slash). */
  path?: string;
  /**
   * Where the Awaken API is, as the browser sees it: `''` (default) for the same origin's `/v1`, or
   * e.g. `/api` when the API is mounted under a prefix. The console calls nothing else.
   */
  apiBase?: string;
  /** The page title. Default `Awaken console`. */
  title?: string;
  /** Tests: another build directory. Default the prebuilt app shipped in the package. */
  staticDir?: string;
}

/** The routes a console adds to an app (any Hono app, an `@awaken/server` app included). */
export interface ConsoleRoutes {
  get(path: string, handler: (c: any) => Response | Promise<Response>): unknown;
}

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function normalizePath(path: string | undefined): string {
  const trimmed = (path ?? '/').replace(/\/+$/, '');
  if (trimmed !== '' && !/^\/[\w\-./]*$/.test(trimmed)) {
    throw new Error(`console path must look like /console, got ${JSON.stringify(path)}`);
  }
  return trimmed;
}

/**
 * Adds the console to `app` under `options.path`: `GET <path>/` (the page; `<path>` without the slash
 * redirects to it), `GET <path>/assets/<file>` (immutable, content-hashed) and `<path>/favicon.svg`.
 * It adds nothing else, so every other path (the API, its 404s) stays the app's. Add it after the
 * API routes. The page is the prebuilt app; it reads `apiBase` from a `<meta>` tag and uses only the
 * public HTTP API, with the bearer token the user types in (kept in the tab's session storage).
 */
export function mountConsole<A extends ConsoleRoutes>(app: A, options: ConsoleOptions = {}): A {
  const base = normalizePath(options.path);
  const files = createStaticFiles(options.staticDir ?? STATIC_DIR);
  const meta = `<meta name="awaken-api-base" content="${escapeAttribute(options.apiBase ?? '')}">`;
  const title = `<title>${escapeAttribute(options.title ?? 'Awaken console')}</title>`;
  let page: Promise<string | undefined> | undefined;

  const index = async (c: any) => {
    page ??= files
      .get('index.html')
      .then((file) =>
        file
          ? new TextDecoder().decode(file.body).replace(/<title>[^<]*<\/title>/, `${title}${meta}`)
          : undefined,
      );
    const html = await page;
    if (html === undefined) {
      return c.text('the console build is missing: run `pnpm --filter @awaken/console build:web`', 503);
    }
    return c.html(html, 200, { 'cache-control': 'no-cache' });
  };
  const serve = (folder?: 'assets') => async (c: any) => {
    const name = folder ? c.req.param('file') : c.req.path.split('/').pop();
    const file = await files.get(name ?? '', folder);
    if (!file) return c.notFound();
    const { body, encoding } = encodingFor(file, c.req.header('accept-encoding'));
    return c.body(body, 200, {
      'content-type': file.type,
      'cache-control': folder ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      vary: 'accept-encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
  };

  if (base !== '') app.get(base, (c: any) => c.redirect(`${base}/`, 308));
  app.get(`${base}/`, index);
  app.get(`${base}/index.html`, index);
  app.get(`${base}/assets/:file`, serve('assets'));
  app.get(`${base}/favicon.svg`, serve());
  return app;
}

/** A Hono app serving only the console (for `app.route('/', createConsoleApp({ path: '/console' }))`). */
export function createConsoleApp(options: ConsoleOptions = {}): Hono {
  return mountConsole(new Hono(), options);
}
