import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { read } from '@changesets/config';
import { getPackages } from '@manypkg/get-packages';
import { describe, expect, it } from 'vitest';
import { publicPackages, readManifests } from './public-packages';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const published = publicPackages(root);

/** Libraries whose copy must be the application's own: never bundled as a regular dependency. */
const PEER_ONLY = ['zod', 'ioredis', 'pg', '@ai-sdk/provider'];

describe('packages that publish', () => {
  it('publishes the libraries, the test kit and the conformance suites', () => {
    expect(published.map((pkg) => pkg.name).sort()).toEqual([
      '@awaken/console',
      '@awaken/contract',
      '@awaken/ext-permission',
      '@awaken/mcp',
      '@awaken/protocol-a2a',
      '@awaken/protocol-ag-ui',
      '@awaken/protocol-ai-sdk',
      '@awaken/provider-ai-sdk',
      '@awaken/runtime',
      '@awaken/server',
      '@awaken/store-conformance',
      '@awaken/store-memory',
      '@awaken/store-postgres',
      '@awaken/store-redis',
      '@awaken/testing',
    ]);
  });

  it('has a valid changesets config: one fixed group of exactly the public packages, private ones never versioned', async () => {
    const config = await read(root, await getPackages(root));
    expect(config.fixed).toHaveLength(1);
    expect([...(config.fixed[0] ?? [])].sort()).toEqual(published.map((pkg) => pkg.name).sort());
    expect(config.privatePackages).toEqual({ version: false, tag: false });
    expect(config.access).toBe('public');
  });

  it.each(published.map((pkg) => [pkg.name, pkg] as const))(
    '%s ships a LICENSE, a README and its metadata',
    (_, pkg) => {
      const { manifest, folder } = pkg;
      const license = readFileSync(join(pkg.dir, 'LICENSE'), 'utf8');
      expect(license).toContain('MIT License');
      expect(license).toContain('Awaken contributors');
      expect(existsSync(join(pkg.dir, 'README.md'))).toBe(true);
      expect(manifest.license).toBe('MIT');
      expect(manifest.repository).toEqual({ ...rootManifest.repository, directory: folder });
      expect(manifest.homepage).toMatch(new RegExp(`/tree/main/${folder}#readme$`));
      expect(manifest.bugs?.url).toMatch(/\/issues$/);
      expect(manifest.files).toEqual(['dist']);
      expect(manifest.publishConfig).toMatchObject({
        access: 'public',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      });
      // a pack (and so a publish) of a fresh clone builds dist first
      expect(manifest.scripts?.prepack).toBe('pnpm run build');
      expect(manifest.scripts?.build).toMatch(/^tsup /);
    },
  );

  it.each(published.map((pkg) => [pkg.name, pkg] as const))(
    '%s takes zod, ioredis, pg and @ai-sdk/provider as peer dependencies only',
    (_, pkg) => {
      const dependencies = Object.keys(pkg.manifest.dependencies ?? {});
      expect(dependencies.filter((name) => PEER_ONLY.includes(name))).toEqual([]);
    },
  );

  it('declares the peer ranges the packages are tested with', () => {
    const peers = Object.fromEntries(published.map((pkg) => [pkg.name, pkg.manifest.peerDependencies ?? {}]));
    for (const name of [
      '@awaken/contract',
      '@awaken/runtime',
      '@awaken/ext-permission',
      '@awaken/server',
      '@awaken/testing',
    ]) {
      expect(peers[name]?.zod, name).toBe('^4.1.0');
    }
    expect(peers['@awaken/store-redis']?.ioredis).toBe('^5.8.0 || ^6.0.0');
    expect(peers['@awaken/store-postgres']?.pg).toBe('^8.11.0');
    expect(peers['@awaken/provider-ai-sdk']?.['@ai-sdk/provider']).toBe('^3.0.0 || ^4.0.0');
  });

  it('asks for Node 20.19 or later everywhere (require(esm), AbortSignal.any)', () => {
    expect(rootManifest.engines).toEqual({ node: '>=20.19' });
    for (const pkg of readManifests(root))
      expect(pkg.manifest.engines, pkg.name).toEqual({ node: '>=20.19' });
  });
});
