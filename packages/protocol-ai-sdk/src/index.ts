export { createUiMessageEncoder } from './encode/create-ui-message-encoder';
export type { UiMessageEncoder, UiMessageEncoderOptions } from './encode/create-ui-message-encoder';
export { encodeUiMessageStream } from './encode/encode-ui-message-stream';
export type { EncodeUiMessageStreamOptions } from './encode/encode-ui-message-stream';
export { finishReasonOf } from './encode/finish-reason';
export { AWAKEN_QUESTION_PART, AWAKEN_THREAD_PART } from './wire/ui-message-chunk';
export type {
  AwakenMessageMetadata,
  AwakenQuestionData,
  AwakenThreadData,
  NestedApprovalDescriptor,
  SubagentProgress,
  UiFinishReason,
  UiMessageChunk,
  UiMessageChunkType,
  UiMessageMetadata,
} from './wire/ui-message-chunk';
export {
  SSE_DONE,
  SSE_KEEP_ALIVE,
  UI_MESSAGE_STREAM_HEADERS,
  createUiMessageStreamResponse,
  formatSseChunk,
  toUiMessageSseStream,
} from './stream/ai-sdk-sse';
export type { UiMessageSseOptions } from './stream/ai-sdk-sse';

export {
  chatRequestSchema,
  isToolPartType,
  parseChatRequest,
  toolPartStateSchema,
  uiMessagePartSchema,
  uiMessageSchema,
  uiToolPartSchema,
} from './request/chat-request';
export type {
  ChatRequest,
  ToolPartState,
  UiMessage,
  UiMessagePart,
  UiToolPart,
} from './request/chat-request';
export { proposeDecisions, readChatTurn } from './request/read-chat-turn';
export type { ChatTurn, ProposedDecision } from './request/read-chat-turn';
export { matchDecisions } from './answers/match-decisions';
export type {
  MatchDecisionsOptions,
  MatchedDecisions,
  ProposalRejectionReason,
  RejectedProposal,
} from './answers/match-decisions';
// the shared answer rules' predicate, re-exported where adapters' users found it
export { isApprovalTicket } from '@awaken/contract';
