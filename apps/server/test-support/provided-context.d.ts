declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    postgresUrl: string;
  }
}
export {};
