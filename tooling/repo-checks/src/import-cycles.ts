import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * Import cycles among the relative imports of the shipped source: a strongly connected component of
 * more than one file, or a file that imports itself. Every relative module specifier counts — `import`,
 * `import type`, `export … from`, side-effect imports, `import('./x')` and `typeof import('./x')`
 * (type-only imports too: a cycle of types still ties the files' designs together).
 */

/** Folders below `src/` that hold tests or test helpers, not shipped code; plus build output. */
const NOT_SHIPPED_FOLDERS = new Set([
  'node_modules',
  'dist',
  'tests',
  '__tests__',
  'test-support',
  'testing',
  'findings',
  'fixtures',
]);
const SOURCE_FILE = /\.tsx?$/;
const NOT_SHIPPED_FILE = /\.(test|spec)\.tsx?$|\.d\.ts$/;

/** Every module specifier of one file, in the order written, as written. */
export function moduleSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, scriptKind(fileName));
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push(node.moduleSpecifier.text);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      found.push(node.moduleReference.expression.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function scriptKind(fileName: string): ts.ScriptKind {
  return fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
}

/**
 * The file a relative specifier names among `files` (POSIX paths): the path itself, with `.ts` or
 * `.tsx` added, a `.js`/`.jsx` suffix read as `.ts`/`.tsx`, or the folder's `index.ts`/`index.tsx`.
 * `undefined` for a bare (package) specifier or a file outside `files`.
 */
export function resolveRelative(
  importer: string,
  specifier: string,
  files: ReadonlySet<string>,
): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== '.' && specifier !== '..')
    return undefined;
  const base = posix.normalize(posix.join(posix.dirname(importer), specifier));
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${base}/index.ts`,
    `${base}/index.tsx`,
  ];
  return candidates.find((candidate) => files.has(candidate));
}

/** Each file's relative imports that resolve to another file (or itself) of `sources`. */
export function importGraph(sources: Readonly<Record<string, string>>): Map<string, Set<string>> {
  const files = new Set(Object.keys(sources));
  const graph = new Map<string, Set<string>>();
  for (const [file, text] of Object.entries(sources)) {
    const targets = new Set<string>();
    for (const specifier of moduleSpecifiers(file, text)) {
      const target = resolveRelative(file, specifier, files);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/**
 * The import cycles of `sources` (POSIX path → file text): each strongly connected component of the
 * import graph with more than one file, or a single file importing itself. Each cycle's files are
 * sorted; cycles are sorted by their first file. Pure: reads nothing but its argument.
 */
export function findImportCycles(sources: Readonly<Record<string, string>>): string[][] {
  const graph = importGraph(sources);
  // Tarjan's algorithm, iterative so a long import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: Iterator<string> }> = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: [...(graph.get(node) ?? [])].sort()[Symbol.iterator]() });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as (typeof work)[number];
      const step = frame.next.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target))
          low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(target) ?? 0));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

function shippedFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return NOT_SHIPPED_FOLDERS.has(entry) ? [] : shippedFilesUnder(path);
    return SOURCE_FILE.test(entry) && !NOT_SHIPPED_FILE.test(entry) ? [path] : [];
  });
}

/**
 * The shipped source of every package and app of the repository at `root`, keyed by POSIX path
 * relative to `root`: the `.ts`/`.tsx` files under `packages/<name>/src` and `apps/<name>/src`, found
 * by walking, without tests (`*.test.ts`, `*.spec.ts`), declarations (`*.d.ts`) or test folders
 * (`tests/`, `test-support/`, `testing/`, `findings/`, `fixtures/`).
 */
export function shippedSources(root: string): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const group of ['packages', 'apps']) {
    const base = join(root, group);
    if (!existsSync(base)) continue;
    for (const name of readdirSync(base).sort()) {
      const src = join(base, name, 'src');
      if (!existsSync(src) || !statSync(src).isDirectory()) continue;
      for (const file of shippedFilesUnder(src)) {
        sources[relative(root, file).split(sep).join('/')] = readFileSync(file, 'utf8');
      }
    }
  }
  return sources;
}

/** One line per cycle, for a failure message: `N files: a.ts, b.ts, …`. */
export function describeCycles(cycles: readonly (readonly string[])[]): string {
  return cycles.map((cycle) => `${cycle.length} files: ${cycle.join(', ')}`).join('\n');
}
