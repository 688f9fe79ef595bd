import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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

/** A file of the build: its bytes and content type, and compressed copies of a text file. */
export interface StaticFile {
  body: Uint8Array;
  type: string;
  /** Brotli and gzip encodings of a compressible file (compressed once, when first read). */
  encoded?: { br: Uint8Array; gzip: Uint8Array };
}

const COMPRESSIBLE = /^(text\/|application\/json|image\/svg)/;

/** The body to send for an `Accept-Encoding` header: brotli, else gzip, else the plain bytes. */
export function encodingFor(
  file: StaticFile,
  acceptEncoding: string | undefined,
): { body: Uint8Array; encoding?: 'br' | 'gzip' } {
  const accepted = (acceptEncoding ?? '').toLowerCase();
  if (file.encoded && /\bbr\b/.test(accepted)) return { body: file.encoded.br, encoding: 'br' };
  if (file.encoded && /\bgzip\b/.test(accepted)) return { body: file.encoded.gzip, encoding: 'gzip' };
  return { body: file.body };
}

function compress(body: Uint8Array): StaticFile['encoded'] {
  return {
    br: new Uint8Array(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })),
    gzip: new Uint8Array(gzipSync(body, { level: 9 })),
  };
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
      const type = TYPES[extname(relative)] ?? 'application/octet-stream';
      return COMPRESSIBLE.test(type) ? { body, type, encoded: compress(body) } : { body, type };
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
