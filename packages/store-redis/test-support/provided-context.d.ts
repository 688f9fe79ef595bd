import 'vitest';

// The root vitest global setup (tooling/vitest) provides the URL of its redis-server.
declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

// ... and the nodes of its Redis Cluster (tooling/vitest/redis-cluster-global-setup.ts).
declare module 'vitest' {
  export interface ProvidedContext {
    redisClusterNodes: string[];
  }
}
