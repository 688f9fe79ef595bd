import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A workspace package as its manifest describes it. */
export interface WorkspaceManifest {
  name: string;
  /** The folder, relative to the repository root (e.g. `packages/runtime`). */
  folder: string;
  dir: string;
  manifest: Record<string, any>;
}

/** Every workspace package under packages/, apps/ and tooling/, with its parsed package.json. */
export function readManifests(root: string): WorkspaceManifest[] {
  const found: WorkspaceManifest[] = [];
  for (const group of ['packages', 'apps', 'tooling']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base).sort()) {
      const path = join(base, entry, 'package.json');
      if (!existsSync(path)) continue;
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
      const dir = join(base, entry);
      found.push({ name: String(manifest.name), folder: relative(root, dir), dir, manifest });
    }
  }
  return found;
}

/** The packages that are published (not `private`). */
export function publicPackages(root: string): WorkspaceManifest[] {
  return readManifests(root).filter((pkg) => pkg.manifest.private !== true);
}
