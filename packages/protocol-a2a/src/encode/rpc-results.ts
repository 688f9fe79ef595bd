import type { A2aStreamResponse, A2aTask, A2aVersion } from '../wire/a2a-types';
import { streamResponseV03, taskV03 } from '../wire/to-v03';

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
