import { importGraph } from './import-cycles';

/**
 * Folders of a package's `src/internal/` that import each other: a file of folder A imports a file of
 * folder B and a file of B imports a file of A. The folders of one `src/internal/` must stack (each
 * imports only folders below it), so a shared type or helper lives in the lower folder. Every import
 * `importGraph` reads counts, type-only imports too.
 */
export interface MutualFolderImports {
  /** The `src/internal` folder both sit in, e.g. `packages/runtime/src/internal`. */
  internal: string;
  /** The two folders (first-level names below `internal`), sorted. */
  folders: [string, string];
  /** Every import between them, either way, as `from → to` relative to `internal`; sorted. */
  imports: string[];
}

/** `<anything>/src/internal/<folder>/<file at any depth>`; a file directly in `src/internal/` has no folder. */
const INTERNAL_FILE = /^((?:.*\/)?src\/internal)\/([^/]+)\/.+$/;

/** The `src/internal` folder and first-level folder a file sits in, or undefined. */
export function internalFolderOf(file: string): { internal: string; folder: string } | undefined {
  const match = INTERNAL_FILE.exec(file);
  return match ? { internal: match[1] as string, folder: match[2] as string } : undefined;
}

/**
 * The pairs of folders of one `src/internal/` that import each other among `sources` (POSIX path →
 * file text), sorted by `internal` then folders. Imports between two different `src/internal/`
 * folders, within one folder, or of files directly in `src/internal/` never make a pair. Pure.
 */
export function findMutualFolderImports(sources: Readonly<Record<string, string>>): MutualFolderImports[] {
  // `internal` → `from folder` → `to folder` → imports
  const edges = new Map<string, Map<string, Map<string, string[]>>>();
  for (const [file, targets] of importGraph(sources)) {
    const from = internalFolderOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = internalFolderOf(target);
      if (!to || to.internal !== from.internal || to.folder === from.folder) continue;
      const byFrom = edges.get(from.internal) ?? new Map<string, Map<string, string[]>>();
      edges.set(from.internal, byFrom);
      const byTo = byFrom.get(from.folder) ?? new Map<string, string[]>();
      byFrom.set(from.folder, byTo);
      const at = from.internal.length + 1;
      byTo.set(to.folder, [...(byTo.get(to.folder) ?? []), `${file.slice(at)} → ${target.slice(at)}`]);
    }
  }
  const pairs: MutualFolderImports[] = [];
  for (const [internal, byFrom] of edges) {
    for (const [a, byTo] of byFrom) {
      for (const [b, forth] of byTo) {
        const back = byFrom.get(b)?.get(a);
        if (a < b && back) pairs.push({ internal, folders: [a, b], imports: [...forth, ...back].sort() });
      }
    }
  }
  const key = (pair: MutualFolderImports) => `${pair.internal}\0${pair.folders.join('\0')}`;
  return pairs.sort((x, y) => key(x).localeCompare(key(y)));
}

/** `internal: a ↔ b`, the name of a pair. */
export function mutualPairName(pair: MutualFolderImports): string {
  return `${pair.internal}: ${pair.folders[0]} ↔ ${pair.folders[1]}`;
}

/** One line per pair, for a failure message: `internal: a ↔ b (a/x.ts → b/y.ts; b/z.ts → a/w.ts)`. */
export function describeMutualFolderImports(pairs: readonly MutualFolderImports[]): string {
  return pairs.map((pair) => `${mutualPairName(pair)} (${pair.imports.join('; ')})`).join('\n');
}
