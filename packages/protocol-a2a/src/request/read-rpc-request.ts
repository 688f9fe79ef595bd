import type { A2aVersion } from '../wire/a2a-types';
import { A2aError } from '../wire/a2a-errors';

/** What a request asks, whichever version named it. */
export type A2aOperation =
  | 'send'
  | 'stream'
  | 'get'
  | 'list'
  | 'cancel'
  | 'subscribe'
  | 'push_config'
  | 'extended_card';

const V1_METHODS: Record<string, A2aOperation> = {
  SendMessage: 'send',
  SendStreamingMessage: 'stream',
  GetTask: 'get',
  ListTasks: 'list',
  CancelTask: 'cancel',
  SubscribeToTask: 'subscribe',
  CreateTaskPushNotificationConfig: 'push_config',
  GetTaskPushNotificationConfig: 'push_config',
  ListTaskPushNotificationConfigs: 'push_config',
  DeleteTaskPushNotificationConfig: 'push_config',
  GetExtendedAgentCard: 'extended_card',
};

const V03_METHODS: Record<string, A2aOperation> = {
  'message/send': 'send',
  'message/stream': 'stream',
  'tasks/get': 'get',
  'tasks/cancel': 'cancel',
  'tasks/resubscribe': 'subscribe',
  'tasks/pushNotificationConfig/set': 'push_config',
  'tasks/pushNotificationConfig/get': 'push_config',
  'tasks/pushNotificationConfig/list': 'push_config',
  'tasks/pushNotificationConfig/delete': 'push_config',
  'agent/getAuthenticatedExtendedCard': 'extended_card',
};

/** A JSON-RPC request the binding understood. */
export interface A2aRpcRequest {
  id: string | number | null;
  method: string;
  operation: A2aOperation;
  /** The wire shapes of the answer: `1.0` for v1 method names, `0.3` for v0.3 ones. */
  version: A2aVersion;
  params: Record<string, unknown>;
}

/** The request header naming the A2A protocol version; every answer varies on it. */
export const A2A_VERSION_HEADER = 'A2A-Version';

/**
 * The protocol version of a request from its `A2A-Version` header: absent means `0.3` (as the A2A
 * SDKs do: v0.3 clients send none), for the agent card and the JSON-RPC methods alike; `1.0` (or
 * `1`) and `0.3` are served; anything else is `-32009 VersionNotSupported`.
 */
export function readA2aVersion(header: string | undefined | null): A2aVersion {
  const value = header?.trim();
  if (value === undefined || value === '' || value === '0.3') return '0.3';
  if (value === '1.0' || value === '1') return '1.0';
  throw new A2aError('version_not_supported', `A2A-Version ${value} is not supported: send 1.0 or 0.3`);
}

/** The request id, when the body has a usable one (errors answer with it). */
export function rpcIdOf(body: unknown): string | number | null {
  if (typeof body !== 'object' || body === null) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * Reads a JSON-RPC 2.0 envelope. v1.0 method names need `A2A-Version: 1.0` (without it the request
 * is v0.3, where they do not exist: `-32601`); v0.3 method names are served under either header and
 * answered in v0.3 shapes. A malformed envelope is `-32600`, an unknown method `-32601`.
 */
export function readRpcRequest(body: unknown, headerVersion: A2aVersion): A2aRpcRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new A2aError(
      'invalid_request',
      'the body must be one JSON-RPC 2.0 request object (batches are not served)',
    );
  const envelope = body as Record<string, unknown>;
  if (envelope.jsonrpc !== '2.0') throw new A2aError('invalid_request', 'jsonrpc: must be "2.0"');
  const { id, method, params } = envelope;
  if (!(typeof id === 'string' || typeof id === 'number'))
    throw new A2aError(
      'invalid_request',
      'id: a string or number is required (notifications are not served)',
    );
  if (typeof method !== 'string' || method === '')
    throw new A2aError('invalid_request', 'method: a string is required');
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    throw new A2aError('invalid_params', 'params: must be an object');
  // own keys only: `__proto__`, `toString`… must not resolve to Object.prototype members
  const v03 = Object.hasOwn(V03_METHODS, method) ? V03_METHODS[method] : undefined;
  const isV1 = Object.hasOwn(V1_METHODS, method);
  const v1 = headerVersion === '1.0' && isV1 ? V1_METHODS[method] : undefined;
  const operation = v03 ?? v1;
  if (!operation) {
    const hint = isV1 ? ` (a v1.0 method: send the header A2A-Version: 1.0)` : '';
    throw new A2aError('method_not_found', `method ${method} not found${hint}`);
  }
  return {
    id,
    method,
    operation,
    version: v03 ? '0.3' : '1.0',
    params: (params ?? {}) as Record<string, unknown>,
  };
}
