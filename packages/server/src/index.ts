export { createMailboxService } from './create-mailbox-service';
export type {
  ActiveRunView,
  DecideOptions,
  DecideResult,
  FollowOptions,
  IfBusy,
  InjectMode,
  InjectRequest,
  InjectResult,
  InterruptResult,
  MailboxService,
  MailboxServiceOptions,
  RetryPolicy,
  RunCommands,
  RunControlService,
  RunTarget,
  ServiceStats,
  ServiceStores,
  SubmitRequest,
  SubmittedRun,
  RequeuedRun,
} from './types';
export { a2aAgentsOf } from './http/a2a/a2a-agents';
export type { A2aAgentInfo, A2aOptions } from './http/a2a/a2a-agents';
export { createHttpApp } from './http/create-http-app';
export type { HttpApp } from './http/create-http-app';
export { httpStatusOf, toHttpError } from './http/error-table';
export type { HttpErrorBody, HttpErrorCode, HttpOnlyErrorCode } from './http/error-table';
export type { Caller, HttpAppOptions, HttpEnv, HttpToken, TokenScope } from './http/http-types';
export type { HttpMetrics } from './http/http-metrics';
export { sseFrame } from './http/sse/run-event-stream';
export { createTracingPlugin } from './tracing/create-tracing-plugin';
export { WAIT_BUCKETS, createApprovalWaitMeter, outcomeOf } from './waits/approval-wait-meter';
export type {
  ApprovalWaitMeter,
  ApprovalWaitMeterOptions,
  MeasuredWait,
  WaitOutcome,
} from './waits/approval-wait-meter';
