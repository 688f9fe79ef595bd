import type { RunContext } from '@awaken/contract';
import type { Context } from 'hono';
import type { HttpEnv } from '../http-types';

/** Who sent the request, as it is recorded with runs and decisions. */
export function callerOf(c: Context<HttpEnv>): { tenant: string; subject: string; requestId: string } {
  const { tenant, subject, requestId } = c.var.caller;
  return { tenant, subject, requestId };
}

/**
 * The context a run is stored with: what the caller sent, with `caller` set by the server (a client
 * cannot claim to be someone else). The service validates it as JSON (422 naming the field).
 */
export function runContextOf(c: Context<HttpEnv>, sent: Record<string, unknown> | undefined): RunContext {
  return { ...(sent as RunContext | undefined), caller: callerOf(c) };
}
