import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../error-table';
import type { HttpEnv } from '../http-types';
import { constantTimeEqual } from './constant-time-equal';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Who may read `/metrics`, which names every tenant with its run counts: with `metricsToken`, only a
 * bearer of it; else, when tenant tokens are configured, nobody (a tenant's token does not do: one
 * tenant must not learn of another); else (an open, loopback-only server) everyone.
 */
export function metricsAccess(options: {
  metricsToken: string | undefined;
  tenantTokens: number;
}): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const { metricsToken } = options;
    if (metricsToken === undefined && options.tenantTokens === 0) return next();
    const presented = BEARER.exec(c.req.header('authorization') ?? '')?.[1];
    // compared even without a presented token, so the time taken says nothing
    const valid = constantTimeEqual(metricsToken ?? '', presented ?? '') && metricsToken !== undefined;
    if (valid && presented !== undefined) return next();
    c.header('WWW-Authenticate', 'Bearer');
    return c.json(errorBody('unauthorized', 'a valid metrics token is required'), 401);
  };
}
