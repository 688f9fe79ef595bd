import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/**
 * The top self-time entries of a V8 `.cpuprofile` (as `node --cpu-prof` writes it): function,
 * file (shortened to the package path) and share of all samples.
 */
export function topSelfTime(file: string, count = 25): Array<{ name: string; where: string; share: number }> {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[]; samples: number[] };
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, { name: string; where: string; hits: number }>();
  for (const id of profile.samples) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = shorten(url) + (url ? `:${lineNumber + 1}` : '');
    const name = functionName || '(anonymous)';
    const key = `${name}@${where}`;
    const entry = totals.get(key) ?? { name, where, hits: 0 };
    entry.hits += 1;
    totals.set(key, entry);
  }
  const all = profile.samples.length || 1;
  return [...totals.values()]
    .sort((a, b) => b.hits - a.hits)
    .slice(0, count)
    .map(({ name, where, hits }) => ({ name, where, share: hits / all }));
}

function shorten(url: string): string {
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('node_modules/');
  if (modules >= 0)
    return path.slice(modules + 'node_modules/'.length).replace(/^\.pnpm\/[^/]+\/node_modules\//, '');
  const packages = path.indexOf('/packages/');
  return packages >= 0 ? path.slice(packages + 1) : path;
}
