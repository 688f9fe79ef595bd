import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The prebuilt single-page app: `static/` beside the module in the published package (`dist/static`,
 * copied by the build), else the package's committed `static/` (the workspace runs `src/`).
 */
export const STATIC_DIR = fileURLToPath(
  existsSync(fileURLToPath(new URL('./static/index.html', import.meta.url)))
    ? new URL('./static/', import.meta.url)
    : new URL('../static/', import.meta.url),
);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** A file of the build: its bytes and content type. */
export interface StaticFile {
  body: Uint8Array;
  type: string;
}

/**
 * Reads files of the build once and keeps them (the build never changes under a running server).
 * Only plain names under the build directory are served: a name with `..`, a slash or a backslash
 * resolves to `undefined`, like a missing file.
 */
export function createStaticFiles(dir: string = STATIC_DIR) {
  const cache = new Map<string, Promise<StaticFile | undefined>>();
  async function load(relative: string): Promise<StaticFile | undefined> {
    try {
      const body = new Uint8Array(await readFile(`${dir}${relative}`));
      return { body, type: TYPES[extname(relative)] ?? 'application/octet-stream' };
    } catch {
      return undefined;
    }
  }
  return {
    /** `name` in the build's top directory, or `assets/<name>` with `folder: 'assets'`. */
    get(name: string, folder?: 'assets'): Promise<StaticFile | undefined> {
      if (!/^[\w.-]+$/.test(name) || name.includes('..')) return Promise.resolve(undefined);
      const relative = folder ? `${folder}/${name}` : name;
      let file = cache.get(relative);
      if (!file) {
        file = load(relative);
        cache.set(relative, file);
      }
      return file;
    },
  };
}
