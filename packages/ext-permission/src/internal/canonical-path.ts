/**
 * The canonical form of a POSIX path, computed lexically (the file system is never read):
 * - `.` segments are dropped, repeated `/` collapse to one, a trailing `/` is dropped;
 * - `..` removes the segment before it, and `..` at the root stays at the root (`/../etc` → `/etc`);
 * - a relative path is resolved against `/` (the plugin does not know the tool's working directory;
 *   from the root, a path whose `..` climb out of any directory lands where it would from the top);
 * - `\` is an ordinary character of a name, as on POSIX (`/tmp\..\etc` is one file under `/`);
 * - percent escapes are not decoded (`%2e%2e` is a directory named `%2e%2e`: no file system call
 *   decodes them, so decoding would judge a different file than the one the tool opens).
 *
 * Returns `undefined` for a value holding a NUL byte: no file system accepts one, and C APIs would
 * read only the part before it, so such a value has no single meaning. Linear in the length.
 */
export function canonicalPath(value: string): string | undefined {
  if (value.includes('\u0000')) return undefined;
  const segments: string[] = [];
  for (const segment of value.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}
