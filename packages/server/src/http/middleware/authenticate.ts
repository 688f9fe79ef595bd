import type { MiddlewareHandler } from 'hono';
import { errorBody } from '../error-table';
import type { HttpEnv, HttpToken, TokenScope } from '../http-types';
import { constantTimeEqual } from './constant-time-equal';
import { ALL_SCOPES } from './require-scope';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Finds the token's entry, comparing against every configured token in constant time. */
export function matchToken(tokens: readonly HttpToken[], presented: string): HttpToken | undefined {
  let found: HttpToken | undefined;
  for (const entry of tokens) {
    // no early exit: the time taken does not tell which token (or how much of one) matched
    if (constantTimeEqual(entry.token, presented) && !found) found = entry;
  }
  return found;
}

/**
 * Resolves the caller's tenant: from the bearer token when tokens are configured (missing or wrong
 * → 401), else the open tenant (with every scope). Sets `caller` (with the token's scopes) and the
 * tenant's `service`.
 */
export function authenticate(options: {
  tokens: readonly HttpToken[];
  openTenant: string;
  services: Record<string, HttpEnv['Variables']['service']>;
}): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const requestId = c.get('caller')?.requestId ?? '';
    let tenant = options.openTenant;
    let subject = options.openTenant;
    let scopes: readonly TokenScope[] = ALL_SCOPES;
    if (options.tokens.length > 0) {
      const match = BEARER.exec(c.req.header('authorization') ?? '');
      const entry = match?.[1] ? matchToken(options.tokens, match[1]) : undefined;
      if (!entry) {
        c.header('WWW-Authenticate', 'Bearer');
        return c.json(errorBody('unauthorized', 'a valid bearer token is required'), 401);
      }
      tenant = entry.tenant;
      subject = entry.subject ?? entry.tenant;
      scopes = entry.scopes ?? ALL_SCOPES;
    }
    const service = options.services[tenant];
    if (!service) return c.json(errorBody('unauthorized', 'the token names no configured tenant'), 401);
    c.set('caller', { tenant, subject, scopes, requestId });
    c.set('service', service);
    c.get('log').setBindings({ tenant, subject });
    await next();
  };
}
