declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    /** `host:port` of each master of the test run's Redis Cluster. */
    redisClusterNodes: string[];
    postgresUrl: string;
  }
}
export {};
