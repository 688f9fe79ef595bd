import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publicPackages } from './public-packages';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

function markdownUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return entry.endsWith('.md') ? [path] : [];
  });
}

/** The docs a reader of the repository or of a published package gets. */
const shippedDocs = [
  join(root, 'README.md'),
  ...publicPackages(root).map((pkg) => join(pkg.dir, 'README.md')),
  ...markdownUnder(join(root, 'docs')),
];

/** Words that only make sense with the project's internal design notes at hand. */
const INTERNAL_REFERENCES = [/\bseeds?\s*0\d\d\b/i, /\bseeds?\//i, /DESIGN(\.md|\s*§)/, /\.\.\/shared\b/];

function links(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

describe('shipped documentation', () => {
  it('has a docs folder with the architecture, the six concepts and guides', () => {
    for (const page of [
      'architecture.md',
      'concepts/runs.md',
      'concepts/tool-calls.md',
      'concepts/suspension.md',
      'concepts/decisions.md',
      'concepts/checkpoints.md',
      'concepts/mailbox.md',
      'guides/getting-started.md',
    ]) {
      expect(existsSync(join(root, 'docs', page)), page).toBe(true);
    }
  });

  it.each(shippedDocs.map((file) => [relative(root, file), file]))(
    '%s cites no internal design notes',
    (_, file) => {
      const text = readFileSync(file, 'utf8');
      for (const pattern of INTERNAL_REFERENCES) expect(text).not.toMatch(pattern);
    },
  );

  it.each(shippedDocs.map((file) => [relative(root, file), file]))(
    '%s links only to files inside the repository that exist',
    (_, file) => {
      const text = readFileSync(file, 'utf8');
      for (const link of links(text)) {
        if (/^(https?:|mailto:|#)/.test(link)) continue;
        const target = resolve(dirname(file), link.split('#')[0] ?? '');
        expect(relative(root, target).startsWith('..'), `${link} leaves the repository`).toBe(false);
        expect(existsSync(target), `${link} does not exist`).toBe(true);
      }
    },
  );
});
