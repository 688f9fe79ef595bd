export type {
  A2aArtifact,
  A2aArtifactUpdate,
  A2aMessage,
  A2aPart,
  A2aStatusUpdate,
  A2aStreamResponse,
  A2aTask,
  A2aTaskStatus,
  A2aVersion,
  TaskState,
} from './wire/a2a-types';
export { INTERRUPTED_TASK_STATES, TERMINAL_TASK_STATES } from './wire/a2a-types';
export { messageV03, streamResponseV03, taskV03 } from './wire/to-v03';

export { A2A_ERROR_CODES, A2aError, rpcErrorResponse, rpcResultResponse } from './wire/a2a-errors';
export type { A2aErrorKind, A2aErrorObject } from './wire/a2a-errors';
export { A2A_VERSION_HEADER, readA2aVersion, readRpcRequest, rpcIdOf } from './request/read-rpc-request';
export type { A2aOperation, A2aRpcRequest } from './request/read-rpc-request';
export {
  readCancelTaskParams,
  readGetTaskParams,
  readListTasksParams,
  readSendParams,
  readSubscribeParams,
} from './request/read-params';
export type { ListTasksParams, SendParams } from './request/read-params';
export { sendResult, streamResult, taskResult } from './encode/rpc-results';
export { sseErrorFrame, sseResultFrame } from './stream/a2a-sse';

export { APPROVALS_EXTENSION_URI, agentCard } from './card/agent-card';
export type { A2aSkill, AgentCardInput } from './card/agent-card';

export { taskStateOf, terminalStateOf } from './encode/task-state';
export { openTicketsOf } from './answers/open-tickets';
// the shared answer rules' predicate, re-exported where adapters' users found it
export { isApprovalTicket } from '@awaken/contract';
export type { OpenTicket } from './answers/open-tickets';
export {
  APPROVAL_ANSWER_SCHEMA,
  APPROVAL_REQUEST_TYPE,
  INDETERMINATE_REQUEST_TYPE,
  INPUT_REQUEST_TYPE,
  indeterminateAnswerSchema,
  inputRequiredMessage,
  ticketDataPart,
} from './encode/input-required-message';
export { ANSWER_ARTIFACT_ID, toolResultArtifact, toolResultArtifactId } from './encode/artifacts';
export { TaskProjection } from './encode/task-projection';
export { artifactsOf, historyOf, taskOfRun, taskStatusOf } from './encode/task-of-run';

export { readAnswers } from './request/read-answers';
export type { TicketAnswer } from './request/read-answers';
export { decideAnswers } from './answers/decide-answers';

export { a2aAgentTool, remoteContextIdOf, REMOTE_APPROVAL_ACTION } from './client/a2a-agent-tool';
export type { A2aAgentToolOptions, A2aAgentToolOutput } from './client/a2a-agent-tool';
export { A2aRemoteError, A2aRpcClient } from './client/a2a-rpc-client';
export type { A2aRpcClientOptions } from './client/a2a-rpc-client';
