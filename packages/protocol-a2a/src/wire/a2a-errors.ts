/** The JSON-RPC error codes of A2A v1.0 (the standard ones, then the A2A-specific ones). */
export const A2A_ERROR_CODES = {
  parse_error: -32700,
  invalid_request: -32600,
  method_not_found: -32601,
  invalid_params: -32602,
  internal_error: -32603,
  task_not_found: -32001,
  task_not_cancelable: -32002,
  push_notification_not_supported: -32003,
  unsupported_operation: -32004,
  content_type_not_supported: -32005,
  invalid_agent_response: -32006,
  extended_card_not_configured: -32007,
  extension_support_required: -32008,
  version_not_supported: -32009,
} as const;

export type A2aErrorKind = keyof typeof A2A_ERROR_CODES;

/** The `google.rpc.ErrorInfo` reason each A2A error carries in `data`. */
const REASONS: Record<A2aErrorKind, string> = {
  parse_error: 'PARSE_ERROR',
  invalid_request: 'INVALID_REQUEST',
  method_not_found: 'METHOD_NOT_FOUND',
  invalid_params: 'INVALID_PARAMS',
  internal_error: 'INTERNAL_ERROR',
  task_not_found: 'TASK_NOT_FOUND',
  task_not_cancelable: 'TASK_NOT_CANCELABLE',
  push_notification_not_supported: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  unsupported_operation: 'UNSUPPORTED_OPERATION',
  content_type_not_supported: 'CONTENT_TYPE_NOT_SUPPORTED',
  invalid_agent_response: 'INVALID_AGENT_RESPONSE',
  extended_card_not_configured: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED',
  extension_support_required: 'EXTENSION_SUPPORT_REQUIRED',
  version_not_supported: 'VERSION_NOT_SUPPORTED',
};

/** A JSON-RPC error object as A2A sends it. */
export interface A2aErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** An A2A error a handler throws; the binding answers it as the JSON-RPC `error` of the request. */
export class A2aError extends Error {
  readonly code: number;
  constructor(
    readonly kind: A2aErrorKind,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'A2aError';
    this.code = A2A_ERROR_CODES[kind];
  }

  /** The `error` member of the JSON-RPC response (v0.3 peers get the same code and message). */
  toJSON(): A2aErrorObject {
    return {
      code: this.code,
      message: this.message,
      data: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: REASONS[this.kind],
          domain: 'a2a-protocol.org',
          ...(this.details ? { metadata: stringValues(this.details) } : {}),
        },
      ],
    };
  }
}

/** ErrorInfo metadata is a string map. */
function stringValues(details: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

/** A JSON-RPC error response. */
export function rpcErrorResponse(id: string | number | null, error: A2aError) {
  return { jsonrpc: '2.0' as const, id, error: error.toJSON() };
}

/** A JSON-RPC success response. */
export function rpcResultResponse(id: string | number | null, result: unknown) {
  return { jsonrpc: '2.0' as const, id, result };
}
