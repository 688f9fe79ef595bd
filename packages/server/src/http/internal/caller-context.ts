import type { Context } from 'hono';
import type { HttpEnv } from '../http-types';

/** The caller as run and decision context: who asked, for which tenant, in which request. */
export function callerContext(c: Context<HttpEnv>): {
  caller: { tenant: string; subject: string; requestId: string };
} {
  const { tenant, subject, requestId } = c.var.caller;
  return { caller: { tenant, subject, requestId } };
}
