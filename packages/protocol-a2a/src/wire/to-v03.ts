import {
  type A2aArtifact,
  type A2aMessage,
  type A2aPart,
  type A2aStreamResponse,
  type A2aTask,
  type A2aTaskStatus,
  INTERRUPTED_TASK_STATES,
  TERMINAL_TASK_STATES,
  type TaskState,
} from './a2a-types';

const STATES: Record<TaskState, string> = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_REJECTED: 'rejected',
};

function partV03(part: A2aPart): Record<string, unknown> {
  const meta = part.metadata ? { metadata: part.metadata } : {};
  if ('text' in part) return { kind: 'text', text: part.text, ...meta };
  if ('data' in part) return { kind: 'data', data: part.data, ...meta };
  const file = {
    ...('url' in part ? { uri: part.url } : { bytes: part.raw }),
    ...(part.mediaType ? { mimeType: part.mediaType } : {}),
    ...(part.filename ? { name: part.filename } : {}),
  };
  return { kind: 'file', file, ...meta };
}

/** A v1 message in v0.3 shape (`kind`, lower-case roles, `kind`-tagged parts). */
export function messageV03(message: A2aMessage): Record<string, unknown> {
  return {
    kind: 'message',
    ...message,
    role: message.role === 'ROLE_USER' ? 'user' : 'agent',
    parts: message.parts.map(partV03),
  };
}

function statusV03(status: A2aTaskStatus): Record<string, unknown> {
  return {
    state: STATES[status.state],
    ...(status.message ? { message: messageV03(status.message) } : {}),
    ...(status.timestamp ? { timestamp: status.timestamp } : {}),
  };
}

function artifactV03(artifact: A2aArtifact): Record<string, unknown> {
  return { ...artifact, parts: artifact.parts.map(partV03) };
}

/** A v1 task in v0.3 shape. */
export function taskV03(task: A2aTask): Record<string, unknown> {
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    status: statusV03(task.status),
    ...(task.artifacts ? { artifacts: task.artifacts.map(artifactV03) } : {}),
    ...(task.history ? { history: task.history.map(messageV03) } : {}),
    ...(task.metadata ? { metadata: task.metadata } : {}),
  };
}

/**
 * A v1 stream event as a v0.3 `result`: unwrapped and `kind`-tagged; a status update carries
 * `final: true` on the interrupted or terminal state that closes the stream.
 */
export function streamResponseV03(response: A2aStreamResponse): Record<string, unknown> {
  if ('task' in response) return taskV03(response.task);
  if ('message' in response) return messageV03(response.message);
  if ('statusUpdate' in response) {
    const { status, ...rest } = response.statusUpdate;
    const final = TERMINAL_TASK_STATES.has(status.state) || INTERRUPTED_TASK_STATES.has(status.state);
    return { kind: 'status-update', ...rest, status: statusV03(status), final };
  }
  const { artifact, ...rest } = response.artifactUpdate;
  return { kind: 'artifact-update', ...rest, artifact: artifactV03(artifact) };
}
