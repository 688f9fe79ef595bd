export { AG_UI_PROTOCOL_VERSION } from './wire/ag-ui-event';
export type {
  AgUiEvent,
  AgUiEventType,
  AgUiInterrupt,
  AgUiMessage,
  AgUiRunOutcome,
  AgUiToolCall,
  JsonPatchOperation,
} from './wire/ag-ui-event';
export {
  AG_UI_KEEP_ALIVE,
  AG_UI_STREAM_HEADERS,
  createAgUiResponse,
  formatAgUiEvent,
  toAgUiSseStream,
} from './stream/ag-ui-sse';
export type { AgUiSseOptions } from './stream/ag-ui-sse';
export { HANDOFF_CUSTOM_EVENT, createAgUiEncoder } from './encode/create-ag-ui-encoder';
export type { AgUiEncoder, AgUiEncoderOptions } from './encode/create-ag-ui-encoder';
export { agUiErrorEvents, encodeAgUiRun } from './encode/encode-ag-ui-run';
export type { AgUiRunEnding, EncodeAgUiRunOptions } from './encode/encode-ag-ui-run';
export { isFrontendTicket } from './answers/open-tickets';
// the shared answer rules' ticket helpers, re-exported where adapters' users found them
export { allowsEditing, isApprovalTicket, openTicketsOf } from '@awaken/contract';
export type { OpenTicket } from '@awaken/contract';
export {
  INDETERMINATE_INTERRUPT_REASON,
  TOOL_CALL_INTERRUPT_REASON,
  responseSchemaOf,
  toInterrupt,
} from './encode/interrupts';
export { diffJson } from './encode/json-patch-diff';
export { judgeResume } from './answers/judge-resume';
export type { JudgeResumeOptions, JudgedResume, ResumeError, ResumeErrorCode } from './answers/judge-resume';
export {
  assistantMessageId,
  reasoningMessageId,
  threadMessageId,
  toolResultMessageId,
} from './encode/message-ids';
export { toAgUiMessages } from './encode/messages-snapshot';
export type { MessagesSnapshotOptions } from './encode/messages-snapshot';
export { supersededToolMessages } from './encode/superseded-tool-messages';
export type { SupersedingRun } from './encode/superseded-tool-messages';
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
} from './request/run-agent-input';
export type { AgUiInputMessage, ResumeEntry, RunAgentInput } from './request/run-agent-input';
