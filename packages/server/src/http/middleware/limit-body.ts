import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { HttpEnv } from '../http-types';

const DECIMAL = /^\d{1,15}$/;

/**
 * Refuses bodies over `maxSize` bytes. A request that declares its length is judged by the header
 * alone (the HTTP parser never delivers more than it declares), so its body is not turned into a
 * stream here; one without a length (chunked) is counted while it streams.
 */
export function limitBody(
  maxSize: number,
  onError: (c: Context<HttpEnv>) => Response | Promise<Response>,
): MiddlewareHandler<HttpEnv> {
  const streaming = bodyLimit({ maxSize, onError });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && DECIMAL.test(length)) {
      if (Number(length) > maxSize) return onError(c);
      return next();
    }
    return streaming(c, next);
  };
}
