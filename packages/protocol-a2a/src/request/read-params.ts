import { clientIdIssue } from '@awaken/contract';
import { z } from 'zod';
import type { A2aMessage, A2aPart, A2aVersion, TaskState } from '../wire/a2a-types';
import { A2aError } from '../wire/a2a-errors';

const metadata = z.record(z.string(), z.unknown()).optional();

/**
 * A context or task id: the server's one id grammar (`clientIdIssue`: 1–256 characters, no control
 * characters, not `.` or `..`), so a context created here is a thread every route can read and delete.
 */
const id = z.string().superRefine((value, ctx) => {
  const issue = clientIdIssue(value);
  if (issue) ctx.addIssue({ code: 'custom', message: issue });
});

const v1Part = z.union([
  z.looseObject({ text: z.string(), mediaType: z.string().optional(), metadata }),
  z.looseObject({ data: z.unknown().refine((value) => value !== undefined, 'data: required'), metadata }),
  z.looseObject({ url: z.string(), mediaType: z.string().optional(), filename: z.string().optional() }),
  z.looseObject({ raw: z.string(), mediaType: z.string().optional(), filename: z.string().optional() }),
]);

const v03Part = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('text'), text: z.string(), metadata }),
  z.looseObject({ kind: z.literal('data'), data: z.unknown(), metadata }),
  z.looseObject({ kind: z.literal('file'), file: z.looseObject({}) }),
]);

const messageFields = {
  messageId: z.string().min(1),
  contextId: id.optional(),
  taskId: id.optional(),
  metadata,
  referenceTaskIds: z.array(z.string()).optional(),
};

const v1Message = z.looseObject({
  ...messageFields,
  role: z.enum(['ROLE_USER', 'ROLE_AGENT']),
  parts: z.array(v1Part).min(1),
});

const v03Message = z.looseObject({
  ...messageFields,
  role: z.enum(['user', 'agent']),
  parts: z.array(v03Part).min(1),
});

const configuration = z
  .looseObject({
    acceptedOutputModes: z.array(z.string()).optional(),
    returnImmediately: z.boolean().optional(),
    blocking: z.boolean().optional(),
    historyLength: z.number().int().nonnegative().optional(),
    taskPushNotificationConfig: z.unknown().optional(),
    pushNotificationConfig: z.unknown().optional(),
  })
  .optional();

const TASK_STATES = [
  'TASK_STATE_UNSPECIFIED',
  'TASK_STATE_SUBMITTED',
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_FAILED',
  'TASK_STATE_REJECTED',
] as const satisfies readonly (TaskState | 'TASK_STATE_UNSPECIFIED')[];

const schemas = {
  get: z.looseObject({ id, historyLength: z.number().int().nonnegative().optional() }),
  cancel: z.looseObject({ id }),
  subscribe: z.looseObject({ id }),
  list: z.looseObject({
    contextId: id.optional(),
    status: z.enum(TASK_STATES).optional(),
    pageSize: z.number().int().min(1).max(100).optional(),
    pageToken: z.string().optional(),
    historyLength: z.number().int().nonnegative().optional(),
  }),
};

function parse<T extends z.ZodType>(schema: T, params: unknown): z.infer<T> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issues = result.error.issues.map((issue) => ({
    path: ['params', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const text = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
  throw new A2aError('invalid_params', `invalid params: ${text}`, { field: issues[0]?.path ?? 'params' });
}

/** A send request, in v1 shapes whichever version sent it. */
export interface SendParams {
  message: A2aMessage;
  /** Wait until the task is terminal or interrupted (the default), or answer at once. */
  returnImmediately: boolean;
  historyLength?: number;
  metadata?: Record<string, unknown>;
}

function v03PartToV1(part: z.infer<typeof v03Part>): A2aPart {
  if (part.kind === 'text') return { text: part.text, ...(part.metadata ? { metadata: part.metadata } : {}) };
  if (part.kind === 'data') return { data: part.data, ...(part.metadata ? { metadata: part.metadata } : {}) };
  const file = part.file as { uri?: string; bytes?: string; mimeType?: string; name?: string };
  const extra = {
    ...(file.mimeType ? { mediaType: file.mimeType } : {}),
    ...(file.name ? { filename: file.name } : {}),
  };
  return file.uri !== undefined ? { url: file.uri, ...extra } : { raw: String(file.bytes ?? ''), ...extra };
}

/**
 * The params of `SendMessage`/`SendStreamingMessage` (v1) or `message/send`/`message/stream`
 * (v0.3): `-32602` naming the field when malformed; a push-notification config is `-32003`.
 */
export function readSendParams(params: unknown, version: A2aVersion): SendParams {
  const envelope = parse(z.looseObject({ message: z.unknown(), configuration, metadata }), params);
  const message: A2aMessage =
    version === '1.0'
      ? (parse(z.object({ message: v1Message }), envelope).message as A2aMessage)
      : (() => {
          const parsed = parse(z.object({ message: v03Message }), envelope).message;
          const { kind: _kind, role, parts, ...rest } = parsed as typeof parsed & { kind?: string };
          return {
            ...rest,
            role: role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
            parts: parts.map(v03PartToV1),
          } as A2aMessage;
        })();
  if (message.role !== 'ROLE_USER')
    throw new A2aError('invalid_params', 'invalid params: params.message.role: must be the user role', {
      field: 'params.message.role',
    });
  const config = envelope.configuration;
  if (config?.taskPushNotificationConfig !== undefined || config?.pushNotificationConfig !== undefined)
    throw new A2aError('push_notification_not_supported', 'push notifications are not supported');
  const returnImmediately =
    config?.returnImmediately ?? (config?.blocking === undefined ? false : !config.blocking);
  return {
    message,
    returnImmediately,
    ...(config?.historyLength === undefined ? {} : { historyLength: config.historyLength }),
    ...(envelope.metadata ? { metadata: envelope.metadata } : {}),
  };
}

export const readGetTaskParams = (params: unknown) => parse(schemas.get, params);
export const readCancelTaskParams = (params: unknown) => parse(schemas.cancel, params);
export const readSubscribeParams = (params: unknown) => parse(schemas.subscribe, params);
export const readListTasksParams = (params: unknown) => parse(schemas.list, params);
export type ListTasksParams = ReturnType<typeof readListTasksParams>;
