import { formatSseFrame } from '@awaken/contract';
import type { A2aStreamResponse, A2aTask, A2aVersion } from '../wire/a2a-types';
import { streamResponseV03, taskV03 } from '../wire/to-v03';
import { type A2aError, rpcErrorResponse } from './a2a-errors';

/** A task as the `result` of `GetTask`/`CancelTask` (v1) or `tasks/get`/`tasks/cancel` (v0.3). */
export function taskResult(task: A2aTask, version: A2aVersion): unknown {
  return version === '1.0' ? task : taskV03(task);
}

/** A task as the `result` of a blocking send: `{task}` in v1.0, the bare `kind: "task"` object in v0.3. */
export function sendResult(task: A2aTask, version: A2aVersion): unknown {
  return version === '1.0' ? { task } : taskV03(task);
}

/** One stream event as the `result` of an SSE frame of the request's version. */
export function streamResult(response: A2aStreamResponse, version: A2aVersion): unknown {
  return version === '1.0' ? response : streamResponseV03(response);
}

/** One SSE frame carrying a JSON-RPC result with the request's id (LF framing, no `[DONE]`). */
export function sseResultFrame(id: string | number | null, result: unknown): string {
  return formatSseFrame({ data: JSON.stringify({ jsonrpc: '2.0', id, result }) });
}

/** The SSE frame of an error after a stream started: `event: error` with the JSON-RPC error. */
export function sseErrorFrame(id: string | number | null, error: A2aError): string {
  return formatSseFrame({ event: 'error', data: JSON.stringify(rpcErrorResponse(id, error)) });
}
