import type { Context, MiddlewareHandler } from 'hono';
import { errorBody } from '../error-table';
import type { HttpEnv, TokenScope } from '../http-types';

/** Every scope, in the order they are listed: what a token without `scopes` has. */
export const ALL_SCOPES: readonly TokenScope[] = ['read', 'run', 'decide'];

const DECISION_PATH = /^\/v1\/(runs|threads)\/[^/]+\/decisions?$/;
const LINKS_PATH = /^\/v1\/runs\/[^/]+\/tickets\/[^/]+\/links$/;

/**
 * The scope a `/v1` request needs: `decide` to send decisions or issue approval links, `read` for
 * any other GET (HEAD, OPTIONS), `run` for everything else (start, message, cancel, interrupt,
 * requeue, chat). An AI SDK chat request, an A2A message on an existing task and an AG-UI `resume[]`
 * that answer approvals need `decide` too (checked by their
 * routes, which alone know what the request carries).
 */
export function scopeOf(method: string, path: string): TokenScope {
  if (method === 'POST' && (DECISION_PATH.test(path) || LINKS_PATH.test(path))) return 'decide';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return 'read';
  return 'run';
}

/** The 403 a request gets for a scope its token lacks, or undefined when it has it. */
export function missingScope(c: Context<HttpEnv>, scope: TokenScope): Response | undefined {
  if (c.var.caller.scopes.includes(scope)) return undefined;
  return c.json(
    errorBody(
      'forbidden_scope',
      `this token lacks the "${scope}" scope (it has: ${c.var.caller.scopes.join(', ') || 'none'})`,
      { required: scope },
    ),
    403,
  );
}

/** Refuses (403 `forbidden_scope`) a `/v1` request whose token lacks the scope its route needs. */
export function requireScope(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const refused = missingScope(c, scopeOf(c.req.method, c.req.path));
    if (refused) return refused;
    await next();
  };
}
