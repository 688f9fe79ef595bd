import { A2A_VERSION_HEADER } from '@awaken/protocol-a2a';
import type { MiddlewareHandler } from 'hono';
import type { HttpEnv } from '../http-types';

/**
 * Every answer of an A2A route — the agent card and the JSON-RPC endpoint, errors and streams
 * included — depends on the request's `A2A-Version` header (absent means v0.3): `Vary: A2A-Version`
 * keeps a cache from serving a v1.0 client the v0.3 answer, or the other way round.
 */
export const varyOnA2aVersion: MiddlewareHandler<HttpEnv> = async (c, next) => {
  await next();
  c.header('vary', A2A_VERSION_HEADER, { append: true });
};
