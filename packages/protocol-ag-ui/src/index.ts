export { AG_UI_PROTOCOL_VERSION } from './ag-ui-event';
export type {
  AgUiEvent,
  AgUiEventType,
  AgUiInterrupt,
  AgUiMessage,
  AgUiRunOutcome,
  AgUiToolCall,
  JsonPatchOperation,
} from './ag-ui-event';
export {
  AG_UI_KEEP_ALIVE,
  AG_UI_STREAM_HEADERS,
  createAgUiResponse,
  formatAgUiEvent,
  toAgUiSseStream,
} from './ag-ui-sse';
export type { AgUiSseOptions } from './ag-ui-sse';
export { createAgUiEncoder } from './create-ag-ui-encoder';
export type { AgUiEncoder, AgUiEncoderOptions } from './create-ag-ui-encoder';
export { agUiErrorEvents, encodeAgUiRun } from './encode-ag-ui-run';
export type { AgUiRunEnding, EncodeAgUiRunOptions } from './encode-ag-ui-run';
export {
  allowsEditing,
  isApprovalTicket,
  isFrontendTicket,
  openTicketsOf,
  responseSchemaOf,
  toInterrupt,
} from './interrupts';
export type { OpenTicket } from './interrupts';
export { diffJson } from './json-patch-diff';
export { judgeResume } from './judge-resume';
export type { JudgeResumeOptions, JudgedResume, ResumeError, ResumeErrorCode } from './judge-resume';
export { assistantMessageId, reasoningMessageId, threadMessageId, toolResultMessageId } from './message-ids';
export { toAgUiMessages } from './messages-snapshot';
export { supersededToolMessages } from './request/superseded-tool-messages';
export type { SupersedingRun } from './request/superseded-tool-messages';
export type { MessagesSnapshotOptions } from './messages-snapshot';
export {
  agUiInputMessageSchema,
  agUiToolSchema,
  contentText,
  newUserMessage,
  parseMaybeJson,
  parseRunAgentInput,
  resumeEntriesOf,
  resumeEntrySchema,
  runAgentInputSchema,
} from './run-agent-input';
export type { AgUiInputMessage, ResumeEntry, RunAgentInput } from './run-agent-input';
