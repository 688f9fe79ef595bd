import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist') return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

/** Every `const x: never = value` hand-rolled exhaustiveness check, as `file:line`. */
function handRolledExhaustiveChecks(root: string): string[] {
  const found: string[] = [];
  for (const top of ['packages', 'apps']) {
    let entries: string[];
    try {
      entries = readdirSync(join(root, top));
    } catch {
      continue;
    }
    for (const name of entries) {
      const src = join(root, top, name, 'src');
      try {
        statSync(src);
      } catch {
        continue;
      }
      for (const file of sourceFiles(src)) {
        for (const [index, line] of readFileSync(file, 'utf8').split('\n').entries()) {
          if (/\bconst \w+: never = /.test(line)) found.push(`${relative(root, file)}:${index + 1}`);
        }
      }
    }
  }
  return found;
}

describe('exhaustive switches', () => {
  it("end with the contract's assertNever, not a hand-rolled `const x: never` check", () => {
    expect(handRolledExhaustiveChecks(repoRoot)).toEqual([]);
  });
});
