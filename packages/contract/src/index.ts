export { AwakenError, toAwakenError } from './errors/awaken-error';
export type { AwakenErrorCode, AwakenErrorJson, AwakenErrorOptions } from './errors/awaken-error';
export { formatZodIssues, parseWith } from './errors/validation';
export { assertNever } from './errors/assert-never';
export { MAX_JSON_DEPTH, findJsonIssue, formatJsonIssue } from './json/find-json-issue';
export type { JsonIssue } from './json/find-json-issue';
export { jsonValueSchema } from './json/json-value-schema';
export {
  CLIENT_ID_RULES,
  MAX_CLIENT_ID_LENGTH,
  clientIdIssue,
  clientIdSchema,
  hasControlCharacter,
  isDotSegment,
} from './ids/client-id';
export { SSE_KEEP_ALIVE, formatSseFrame } from './sse/format-sse-frame';
export type { SseFrame } from './sse/format-sse-frame';
export { toSseStream } from './sse/to-sse-stream';
export type { SseSource, SseStreamOptions } from './sse/to-sse-stream';

export { canTransition, transitionIn } from './state/transition-table';
export type { TransitionTable } from './state/transition-table';

export {
  RUN_STATUS_TRANSITIONS,
  canTransitionRunStatus,
  runStatusSchema,
  transitionRunStatus,
} from './run/run-status';
export type { RunStatus } from './run/run-status';
export { deriveRunStatus } from './run/derive-run-status';
export type { DerivedRunStatus } from './run/derive-run-status';
export { PHASES, phaseSchema } from './run/phase';
export type { Phase } from './run/phase';
export {
  stoppedReasonSchema,
  terminationReasonSchema,
  terminationToRunStatus,
} from './run/termination-reason';
export type { StoppedReason, TerminationReason, TerminationReasonType } from './run/termination-reason';
export { isValidRegex, stopConditionSpecSchema } from './run/stop-condition';
export type { StopConditionSpec, StopConditionType } from './run/stop-condition';
export {
  RUNTIME_STATE_PATH,
  RUN_STATE_PATHS,
  runLifecycleStateSchema,
  suspendedCallPath,
  toolCallStatePath,
} from './run/run-state-paths';
export type { RunLifecycleState } from './run/run-state-paths';
export { threadSchema } from './run/thread';
export type { Thread } from './run/thread';
export { runWaitingStateSchema, runWaitingTicketSchema } from './run/run-waiting-state';
export { waitingTicketOf } from './run/waiting-ticket-of';
export { pointersAfterCheckpoint } from './run/thread-pointers';
export { THREAD_TITLE_MAX_CHARS, threadTitleOf } from './run/thread-title';
export type { RunWaitingState, RunWaitingTicket } from './run/run-waiting-state';
export { runContextSchema } from './run/run-context';
export type { RunContext } from './run/run-context';
export { runRecordSchema, runRequestOriginSchema, seqRangeSchema } from './run/run-record';
export type { RunRecord, RunRequestOrigin, SeqRange } from './run/run-record';
export {
  AGENT_PIN_FIELDS,
  agentDriftOf,
  agentDriftSchema,
  agentPinSchema,
  describeAgentDrift,
} from './run/agent-pin';
export type { AgentDrift, AgentPin, AgentPinField } from './run/agent-pin';
export {
  RUN_RECORDING_FORMAT,
  RUN_RECORDING_MEDIA_TYPE,
  RUN_RECORDING_VERSION,
  parseRunRecording,
  recordingLine,
  runRecordingEndSchema,
  runRecordingHeaderSchema,
} from './run/run-recording';
export type { RunRecording, RunRecordingEnd, RunRecordingHeader } from './run/run-recording';
export {
  MAX_HANDOFF_REASON_LENGTH,
  activeAgentIdOf,
  handoffRecordSchema,
} from './run/handoff-record';
export type { HandoffRecord } from './run/handoff-record';
export { forkOriginSchema, forkRepeatSchema } from './run/fork-origin';
export type { ForkOrigin, ForkRepeat } from './run/fork-origin';
export { FORK_REPEAT_ACTION, forkRepeatSuspension, forkRepeatTicketId } from './hitl/fork-repeat';

export {
  TERMINAL_TOOL_CALL_STATUSES,
  TOOL_CALL_STATUS_TRANSITIONS,
  canTransitionToolCall,
  isTerminalToolCallStatus,
  toolCallStatusSchema,
  transitionToolCall,
} from './tool/tool-call-status';
export type { ToolCallStatus } from './tool/tool-call-status';
export { toolCallStateSchema } from './tool/tool-call-state';
export type { ToolCallState } from './tool/tool-call-state';
export {
  isToolResult,
  toolFailure,
  toolPending,
  toolResultSchema,
  toolSuccess,
  toolWarning,
} from './tool/tool-result';
export type { ToolResult } from './tool/tool-result';
export { defineTool } from './tool/tool';
export { CLIENT_TOOL_ACTION, clientToolSchema, isClientToolTicket } from './tool/client-tool';
export type { ClientTool } from './tool/client-tool';
export type { InferToolInput, Tool, ToolExecuteContext } from './tool/tool';
export { JSON_SCHEMA_INPUT_MARKER, jsonSchemaInput } from './tool/tool-input-schema';
export type {
  JsonSchemaInput,
  JsonSchemaInputValidation,
  StandardSchemaIssueLike,
  StandardSchemaLike,
  StandardSchemaResultLike,
  ToolInputSchema,
} from './tool/tool-input-schema';
export type { AiSdkTool, ToolSet } from './tool/ai-sdk-tool';

export {
  jsonSchemaSchema,
  pendingToolCallSchema,
  suspendTicketSchema,
  suspensionSchema,
  toolCallResumeModeSchema,
} from './hitl/suspension';
export type {
  JsonSchema,
  PendingToolCall,
  SuspendTicket,
  Suspension,
  ToolCallResumeMode,
} from './hitl/suspension';
export {
  decisionRecordOf,
  decisionRecordSchema,
  readDecisionRecords,
  runStarterOf,
} from './hitl/decision-record';
export type { DecisionRecord } from './hitl/decision-record';
export {
  decisionChannelSchema,
  decisionRejectionReasonSchema,
  resumeDecisionActionSchema,
  toolCallDecisionInputSchema,
  toolCallDecisionSchema,
  toolCallResumeSchema,
} from './hitl/decision';
export { judgeDecision } from './hitl/judge-decision';
export { judgeAnswers } from './hitl/judge-answers';
export type { JudgeAnswersOptions } from './hitl/judge-answers';
export type {
  AnswerRefusalReason,
  GivenAnswer,
  JudgedAnswer,
  JudgedAnswers,
  TicketAnswer,
} from './hitl/ticket-answer';
export { allowsEditing, isApprovalTicket, openTicketsOf } from './hitl/open-tickets';
export { isIndeterminateTicket, questionKindOf } from './hitl/question-kind';
export type { KindedTicket, QuestionKind } from './hitl/question-kind';
export type { OpenTicket } from './hitl/open-tickets';
export { answerDecisionId, answerDigest } from './hitl/answer-digest';
export type { DecisionJudgement } from './hitl/judge-decision';
export { decisionViewOf } from './hitl/decision-view';
export { runAskersOf } from './hitl/run-askers';
export type { DecisionView } from './hitl/decision-view';
export { decisionNames, duplicateReceipt, rejectedReceipt } from './hitl/decision-receipts';
export {
  readAppliedDecisionIds,
  readExpiredTicketIds,
  readQueuedDecisions,
  readToolCallStates,
} from './run/read-run-state';
export type {
  DecisionChannel,
  DecisionReceipt,
  DecisionRejectionReason,
  ResumeDecisionAction,
  ToolCallDecision,
  ToolCallDecisionInput,
  ToolCallResume,
} from './hitl/decision';
export {
  APPROVAL_PAYLOAD_JSON_SCHEMA,
  answer,
  approvalPayloadSchema,
  approve,
  declinedCallMessage,
  deny,
  readApproval,
} from './hitl/approval';
export type { ApprovalPayload, ApproveOptions, DecisionOptions, TicketReference } from './hitl/approval';
export { expiredCallMessage, ticketExpired, ticketExpiresAt } from './hitl/ticket-expiry';
export {
  INDETERMINATE_ACTION,
  INDETERMINATE_ANSWER_JSON_SCHEMA,
  INDETERMINATE_OUTCOMES,
  indeterminateAnswerSchema,
  indeterminateQuestionOf,
  indeterminateSuspension,
  readIndeterminateAnswer,
  resolveIndeterminate,
} from './hitl/indeterminate';
export type { IndeterminateAnswer, IndeterminateOutcome } from './hitl/indeterminate';
export { compileJsonSchema, validateJsonSchema } from './json-schema/validate-json-schema';
export type { JsonSchemaCheck, JsonSchemaIssue } from './json-schema/validate-json-schema';

export {
  assistantMessageSchema,
  messageSchema,
  systemMessageSchema,
  toolCallSchema,
  toolMessageSchema,
  userMessageSchema,
  visibilitySchema,
} from './messages/message';
export type {
  AssistantMessage,
  Message,
  SystemMessage,
  ToolCall,
  ToolMessage,
  UserMessage,
  Visibility,
} from './messages/message';
export { messageRecordSchema, newMessageSchema } from './messages/message-record';
export type { MessageRecord, NewMessage } from './messages/message-record';

export { nestedQuestionSchema } from './subagents/nested-question';
export type { NestedQuestion } from './subagents/nested-question';
export {
  AGENT_PATH_SEPARATOR,
  forwardDecision,
  forwardedDecisionId,
  nestQuestion,
  nestedTicketId,
} from './subagents/nest-question';
export type { NestedSuspension } from './subagents/nest-question';
export type { SubRunOutcome, SubRunRequest, SubRuns } from './subagents/sub-runs';
export { agentEventSchema } from './events/agent-event';
export type { AgentEvent, AgentEventInput, AgentEventOf, AgentEventType } from './events/agent-event';

export { EMPTY_USAGE, addUsage, tokenUsageSchema } from './model/token-usage';
export type { TokenUsage } from './model/token-usage';
export type {
  FinishReason,
  InferenceOptions,
  InferenceRequest,
  InferenceStreamPart,
  ModelExecutor,
  ToolChoice,
  ToolDescriptor,
} from './model/model-executor';

export { callInstanceKey } from './plugin/call-instance-key';
export { defineStateKey, stateKeyStorageName } from './plugin/state-key';
export type { PluginStateAccess, StateKey } from './plugin/state-key';
export type { ToolGateDecision } from './plugin/tool-gate-decision';
export type {
  AfterInferenceContext,
  AfterToolExecuteContext,
  BeforeInferenceContext,
  BeforeToolExecuteContext,
  HookContext,
  InferenceDraft,
  InferenceResponse,
  RunEndContext,
  RunStartContext,
  StepEndContext,
  ToolCallHookContext,
  ToolGateContext,
} from './plugin/hook-contexts';
export type { Plugin, PluginHooks } from './plugin/plugin';

export {
  RUN_DISPATCH_STATUS_TRANSITIONS,
  TERMINAL_DISPATCH_STATUSES,
  canTransitionDispatch,
  enqueueDispatchInputSchema,
  isTerminalDispatchStatus,
  mailboxInterruptSchema,
  runDispatchResultSchema,
  runDispatchSchema,
  runDispatchStatusSchema,
  transitionDispatch,
} from './mailbox/run-dispatch';
export type {
  EnqueueDispatchInput,
  MailboxInterrupt,
  RunDispatch,
  RunDispatchResult,
  RunDispatchStatus,
} from './mailbox/run-dispatch';
export { queuedDispatch } from './mailbox/queued-dispatch';
export { dispatchWithRunResult } from './mailbox/dispatch-with-run-result';

export type { AwakenStores } from './stores/awaken-stores';
export type { Page, PageRequest } from './stores/paging';
export { copyJsonValue, toJsonValue } from './json/to-json-value';
export {
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  MAX_WAIT_MS,
  abortSignalSchema,
  isJsonChecked,
  isWellFormedText,
  jsonChecked,
  leaseMsSchema,
  millisSchema,
  pageRequestSchema,
  pageSize,
  positiveIntegerSchema,
  storeIdSchema,
  storeTextSchema,
  ttlMsSchema,
  waitMsSchema,
} from './stores/inputs/fields';
export { defineStoreInput } from './stores/inputs/store-input';
export type { StoreInput } from './stores/inputs/store-input';
export { offerTrustedView, trustedStoreInputs, trustedViewOf } from './stores/inputs/trusted-inputs';
export { jsonCopy } from './json/json-copy';
export { sameJson } from './json/same-json';
export { DEFAULT_RECLAIM_LIMIT, mailboxStoreInputs } from './stores/inputs/mailbox-inputs';
export {
  checkpointSchema,
  checkpointTriggerSchema,
  threadRunStoreInputs,
} from './stores/inputs/thread-run-inputs';
export { DEFAULT_FINISHED_LOG_TTL_MS, runEventLogInputs } from './stores/inputs/run-event-log-inputs';
export { runControlInboxInputs } from './stores/inputs/run-control-inbox-inputs';
export type {
  Checkpoint,
  CheckpointTrigger,
  CreateThreadInput,
  ThreadListRequest,
  ThreadOrder,
  ThreadRunStore,
} from './stores/thread-run-store';
export type { ClaimProof, MailboxStore } from './stores/mailbox-store';
export type { FencedWrite, RunEventLog } from './stores/run-event-log';
export type {
  CheckpointEnd,
  CheckpointEvents,
  CheckpointWithEvents,
  CheckpointWithEventsOutcome,
  JointCheckpointStore,
} from './stores/checkpoint-with-events';
export { jointCheckpointWriter } from './stores/checkpoint-with-events';
export type {
  AcquireWithFence,
  AcquiredWithFence,
  JointAcquireStore,
} from './stores/acquire-with-fence';
export { jointAcquirer } from './stores/acquire-with-fence';
export type {
  CreateRunWithLeaseInput,
  CreatedRunWithLease,
  RunCreationWithLease,
} from './stores/create-run-with-lease';
export { runCreationWithLease } from './stores/create-run-with-lease';
export type {
  BranchListRequest,
  CreateBranchInput,
  ThreadBranching,
} from './stores/thread-branching';
export { threadBranching } from './stores/thread-branching';
export {
  MAX_RUN_LEASE_MS,
  acquireRunInputSchema,
  fenceSchema,
  runLeaseProofSchema,
  runLeaseSchema,
} from './stores/run-lease';
export type { AcquireRunInput, RunLease, RunLeaseProof } from './stores/run-lease';
export {
  decisionControl,
  decisionTarget,
  runControlIdsSchema,
  runControlSchema,
} from './stores/run-control-inbox';
export type { RunControl, RunControlInbox, RunControlKind } from './stores/run-control-inbox';
export {
  isResentRunControl,
  reusedRunControlId,
  secondPendingDecision,
} from './stores/run-control-conflicts';
