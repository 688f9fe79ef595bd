import { startRedisServer } from '@awaken/testing';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

/**
 * Starts one real redis-server for the whole test run on a free loopback port and provides its URL
 * as `inject('redisUrl')`. Tests isolate themselves with a unique key prefix.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startRedisServer();
  project.provide('redisUrl', server.url);
  return () => server.stop();
}
