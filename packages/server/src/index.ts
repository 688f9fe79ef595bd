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
export type { ApprovalLinks } from './notifications/approval-links';
export {
  createNotificationOutbox,
  deliveryIdOf,
} from './notifications/create-notification-outbox';
export type {
  NotificationOutbox,
  NotificationOutboxOptions,
  NotificationStores,
  StoredDelivery,
} from './notifications/create-notification-outbox';
export { runNotificationsOf } from './notifications/run-notifications-of';
export type { NotifiedTicket, RunNotification } from './notifications/run-notifications-of';
export { deliveryRetryDelay, startDeliveryWorker } from './notifications/start-delivery-worker';
export type { DeliveryWorker, DeliveryWorkerOptions } from './notifications/start-delivery-worker';
export {
  notificationEventSchema,
  parseWebhookEndpoints,
  webhookEndpointSchema,
} from './notifications/webhook-endpoint';
export type {
  NotificationEvent,
  WebhookEndpoint,
  WebhookEndpointInput,
} from './notifications/webhook-endpoint';
export {
  DELIVERY_ID_HEADER,
  EVENT_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhook,
} from './notifications/webhook-signature';
export { slackApprovalCard } from './notifications/slack/slack-card';
export { signSlackRequest, verifySlackRequest } from './notifications/slack/slack-signature';
export { SHADOW_VERDICTS_STATE, createShadowVerdictMeter } from './shadow/shadow-verdict-meter';
export type {
  CountedShadowVerdict,
  ShadowVerdictMeter,
  ShadowVerdictMeterOptions,
} from './shadow/shadow-verdict-meter';
export { WAIT_BUCKETS, createApprovalWaitMeter, outcomeOf } from './waits/approval-wait-meter';
export type {
  ApprovalWaitMeter,
  ApprovalWaitMeterOptions,
  MeasuredWait,
  WaitOutcome,
} from './waits/approval-wait-meter';
