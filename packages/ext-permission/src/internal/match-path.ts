import { canonicalPath } from './canonical-path';
import { compileGlobMatcher } from './compile-glob';

/**
 * How a path glob counts a value that can be read two ways (as written and canonical):
 * `some` — it matches when either reading matches (deny and ask rules: no spelling escapes them);
 * `every` — only when both match (allow rules: no spelling sneaks into them). A value with no
 * canonical form (a NUL byte) matches under `some` and never under `every`: the stricter outcome.
 */
export type PathReading = 'some' | 'every';

/** A glob that starts with `/` is a path pattern: it is matched against canonical paths as well. */
export function isPathGlob(glob: string): boolean {
  return glob.startsWith('/');
}

/**
 * Compiles a path glob (see {@link isPathGlob}): the value as written is tested against the pattern
 * as written, and the canonical value against the canonical pattern (so `/usr/bin/curl https://**`
 * keeps matching what it matched). A pattern ending in `/**` also covers the directory itself
 * (`/etc/**` matches `/etc`).
 */
export function compilePathGlob(glob: string): (value: string, reading: PathReading) => boolean {
  const asWritten = globOrDirectory(glob);
  const canonical = globOrDirectory(canonicalPath(glob) ?? glob);
  return (value, reading) => {
    const canonicalValue = canonicalPath(value);
    if (canonicalValue === undefined) return reading === 'some';
    return reading === 'some'
      ? asWritten(value) || canonical(canonicalValue)
      : asWritten(value) && canonical(canonicalValue);
  };
}

/** The glob's test; for `dir/**`, also true for `dir` itself (and `/**` for `/`). */
function globOrDirectory(glob: string): (text: string) => boolean {
  const test = compileGlobMatcher(glob);
  if (!glob.endsWith('/**')) return test;
  const directory = compileGlobMatcher(glob.length === 3 ? '/' : glob.slice(0, -3));
  return (text) => test(text) || directory(text);
}
