// The root vitest global setup (tooling/vitest) provides the URL of its redis-server.
declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    postgresUrl: string;
  }
}
export {};
