/**
 * The architecture's dependency table as data (docs/architecture.md): the `@awaken/*` packages each workspace package may depend on at run time
 * (`dependencies`, `peerDependencies`, `optionalDependencies`). `'*'` means any workspace package.
 * Every edge points toward `@awaken/contract`; only the server, apps and benchmarks use the runtime.
 */
export const ALLOWED_RUNTIME_EDGES: Readonly<Record<string, readonly string[] | '*'>> = {
  '@awaken/contract': [],
  '@awaken/runtime': ['@awaken/contract'],
  '@awaken/ext-permission': ['@awaken/contract'],
  '@awaken/store-memory': ['@awaken/contract'],
  '@awaken/store-redis': ['@awaken/contract'],
  '@awaken/store-postgres': ['@awaken/contract'],
  '@awaken/store-conformance': ['@awaken/contract'],
  '@awaken/provider-ai-sdk': ['@awaken/contract'],
  '@awaken/protocol-ai-sdk': ['@awaken/contract'],
  '@awaken/protocol-ag-ui': ['@awaken/contract'],
  '@awaken/protocol-a2a': ['@awaken/contract'],
  '@awaken/mcp': ['@awaken/contract'],
  '@awaken/console': [],
  '@awaken/server': [
    '@awaken/contract',
    '@awaken/runtime',
    '@awaken/store-memory',
    '@awaken/ext-permission',
    '@awaken/protocol-ai-sdk',
    '@awaken/protocol-ag-ui',
    '@awaken/protocol-a2a',
  ],
  '@awaken/testing': ['@awaken/contract'],
  '@awaken/app-server': '*',
  '@awaken/bench': '*',
  '@awaken/vitest-setup': ['@awaken/testing'],
  '@awaken/repo-checks': [],
  '@awaken/tsconfig': [],
};

/** Packages any test (a devDependency) may use on top of the runtime edges. */
export const TEST_ONLY_EDGES: readonly string[] = [
  '@awaken/runtime',
  '@awaken/testing',
  '@awaken/store-conformance',
  '@awaken/store-memory',
  '@awaken/store-redis',
  '@awaken/store-postgres',
  '@awaken/provider-ai-sdk',
  '@awaken/ext-permission',
];
