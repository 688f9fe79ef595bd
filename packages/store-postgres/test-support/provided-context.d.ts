import 'vitest';

// The root vitest global setup (tooling/vitest) provides the URL of its postgres server.
declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
