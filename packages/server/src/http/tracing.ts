import type { MiddlewareHandler } from 'hono';
import type { HttpEnv } from './http-types';

/** Placeholder until spans are wired: passes requests through. */
export function traceRequests(): MiddlewareHandler<HttpEnv> {
  return async (_c, next) => {
    await next();
  };
}
