export { createUiMessageEncoder } from './create-ui-message-encoder';
export type { UiMessageEncoder, UiMessageEncoderOptions } from './create-ui-message-encoder';
export { encodeUiMessageStream } from './encode-ui-message-stream';
export type { EncodeUiMessageStreamOptions } from './encode-ui-message-stream';
export { finishReasonOf } from './finish-reason';
export type {
  AwakenMessageMetadata,
  UiFinishReason,
  UiMessageChunk,
  UiMessageChunkType,
  UiMessageMetadata,
} from './ui-message-chunk';
export {
  SSE_DONE,
  SSE_KEEP_ALIVE,
  UI_MESSAGE_STREAM_HEADERS,
  createUiMessageStreamResponse,
  formatSseChunk,
  toUiMessageSseStream,
} from './ui-message-sse';
export type { UiMessageSseOptions } from './ui-message-sse';

export {
  chatRequestSchema,
  isToolPartType,
  parseChatRequest,
  toolPartStateSchema,
  uiMessagePartSchema,
  uiMessageSchema,
  uiToolPartSchema,
} from './chat-request';
export type { ChatRequest, ToolPartState, UiMessage, UiMessagePart, UiToolPart } from './chat-request';
export { proposeDecisions, readChatTurn } from './read-chat-turn';
export type { ChatTurn, ProposedDecision } from './read-chat-turn';
export { matchDecisions } from './match-decisions';
export type {
  MatchDecisionsOptions,
  MatchedDecisions,
  ProposalRejectionReason,
  RejectedProposal,
} from './match-decisions';
// the shared answer rules' predicate, re-exported where adapters' users found it
export { isApprovalTicket } from '@awaken/contract';
