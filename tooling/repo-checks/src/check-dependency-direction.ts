import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ALLOWED_RUNTIME_EDGES, TEST_ONLY_EDGES } from './allowed-edges';

interface WorkspacePackage {
  name: string;
  dir: string;
  runtimeDeps: string[];
  devDeps: string[];
}

const WORKSPACE_GLOBS = ['packages', 'apps', 'tooling'];
const RUNTIME_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'] as const;

function awakenDeps(manifest: Record<string, unknown>, fields: readonly string[]): string[] {
  const names = fields.flatMap((field) => Object.keys((manifest[field] as Record<string, string>) ?? {}));
  return [...new Set(names.filter((name) => name.startsWith('@awaken/')))];
}

/** Reads every workspace package.json under packages/, apps/ and tooling/. */
export function readWorkspace(root: string): WorkspacePackage[] {
  const found: WorkspacePackage[] = [];
  for (const folder of WORKSPACE_GLOBS) {
    const base = join(root, folder);
    if (!existsSync(base)) continue;
    for (const entry of readdirSync(base)) {
      const manifestPath = join(base, entry, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
      found.push({
        name: String(manifest.name),
        dir: join(base, entry),
        runtimeDeps: awakenDeps(manifest, RUNTIME_FIELDS),
        devDeps: awakenDeps(manifest, ['devDependencies']),
      });
    }
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    // `fixtures/` holds stand-alone projects with their own dependencies (e.g. the packed-install one)
    if (entry === 'node_modules' || entry === 'dist' || entry === 'fixtures') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry) ? [path] : [];
  });
}

const IMPORT_PATTERN = /(?:from\s+|import\s*\(\s*|import\s+)['"](@awaken\/[^'"]+)['"]/g;

function importedPackages(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT_PATTERN)].map((match) => match[1] ?? '');
}

function packageOf(specifier: string): string {
  return specifier.split('/').slice(0, 2).join('/');
}

/**
 * Returns every violation of the architecture's dependency table in the workspace at `root`: a runtime edge outside the
 * table, a test-only edge that is not allowed, an unknown package, a source import of a package that
 * is not declared, or a deep import into another package's `src/` or `dist/`.
 */
export function checkDependencyDirection(root: string): string[] {
  const violations: string[] = [];
  for (const pkg of readWorkspace(root)) {
    const allowed = ALLOWED_RUNTIME_EDGES[pkg.name];
    if (allowed === undefined) {
      violations.push(
        `${pkg.name}: not in the allowed-edges table (tooling/repo-checks/src/allowed-edges.ts)`,
      );
      continue;
    }
    const isAllowed = (dep: string) => allowed === '*' || allowed.includes(dep);
    for (const dep of pkg.runtimeDeps) {
      if (!isAllowed(dep))
        violations.push(
          `${pkg.name} -> ${dep}: runtime dependency not allowed by the architecture's dependency table`,
        );
    }
    for (const dep of pkg.devDeps) {
      const devOk = isAllowed(dep) || (pkg.name !== '@awaken/contract' && TEST_ONLY_EDGES.includes(dep));
      if (!devOk || dep === pkg.name) violations.push(`${pkg.name} -> ${dep} (dev): not allowed`);
    }
    const srcDir = join(pkg.dir, 'src');
    for (const file of sourceFiles(pkg.dir)) {
      // Shipped code is a non-test file under src/; tests, test helpers and scripts may use devDependencies.
      const shipped = file.startsWith(`${srcDir}/`) && !/\.test\.tsx?$/.test(file);
      const declared = shipped ? pkg.runtimeDeps : [...pkg.runtimeDeps, ...pkg.devDeps];
      for (const specifier of importedPackages(file)) {
        const where = relative(root, file);
        if (/\/(src|dist)(\/|$)/.test(specifier)) violations.push(`${where}: deep import ${specifier}`);
        const target = packageOf(specifier);
        if (target !== pkg.name && !declared.includes(target)) {
          violations.push(`${where}: imports ${target}, which ${pkg.name} does not declare`);
        }
      }
    }
  }
  return violations;
}
