/**
 * Top functions of a `.cpuprofile` (as `node --cpu-prof` writes it), for the benchmarks' profile
 * notes: `tsx src/internal/profile-summary.ts <file.cpuprofile> [count] [self|total]` — self time
 * (the default) or total time (the function and everything it called, each sample counted once).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const [file, countText, mode = 'self'] = process.argv.slice(2);
if (file === undefined) throw new Error('usage: profile-summary <file.cpuprofile> [count]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
const keyOf = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/(packages|node_modules)\//, '$1/');
  return `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
};
const parents = new Map<number, ProfileNode>();
for (const node of profile.nodes) {
  for (const child of node.children ?? []) parents.set(child, node);
}
const selfHits = new Map<string, number>();
let total = 0;
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  total += hits;
  if (hits === 0) continue;
  const keys = new Set([keyOf(node)]);
  if (mode === 'total') {
    for (let parent = parents.get(node.id); parent; parent = parents.get(parent.id)) keys.add(keyOf(parent));
  }
  for (const key of keys) selfHits.set(key, (selfHits.get(key) ?? 0) + hits);
}
const top = [...selfHits].sort((a, b) => b[1] - a[1]).slice(0, Number(countText ?? 30));
for (const [key, hits] of top) console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
