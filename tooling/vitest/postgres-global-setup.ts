import { startPostgresServer } from '@awaken/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/**
 * Starts one real PostgreSQL server for the whole test run (`initdb` into a temp dir, a free
 * loopback port; as root it runs as `nobody`) and provides its URL as `inject('postgresUrl')`.
 * Tests isolate themselves with a schema (or database) of their own. Torn down after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  return () => server.stop();
}
