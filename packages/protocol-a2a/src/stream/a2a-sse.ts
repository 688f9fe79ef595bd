import { formatSseFrame } from '@awaken/contract';
import { type A2aError, rpcErrorResponse } from '../wire/a2a-errors';

/** One SSE frame carrying a JSON-RPC result with the request's id (LF framing, no `[DONE]`). */
export function sseResultFrame(id: string | number | null, result: unknown): string {
  return formatSseFrame({ data: JSON.stringify({ jsonrpc: '2.0', id, result }) });
}

/** The SSE frame of an error after a stream started: `event: error` with the JSON-RPC error. */
export function sseErrorFrame(id: string | number | null, error: A2aError): string {
  return formatSseFrame({ event: 'error', data: JSON.stringify(rpcErrorResponse(id, error)) });
}
