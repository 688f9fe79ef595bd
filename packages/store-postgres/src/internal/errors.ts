import { AwakenError } from '@awaken/contract';

export function notFound(what: string, id: string): AwakenError {
  return new AwakenError('not_found', `${what} ${id} not found`, { details: { id } });
}

export function conflict(message: string, details?: Record<string, unknown>): AwakenError {
  return new AwakenError('conflict', message, details === undefined ? {} : { details });
}

/**
 * A lost connection or a server going away (SQLSTATE classes 08 and 57P, socket errors, node-postgres'
 * "Connection terminated"): the request may be re-sent. Our own errors and SQL errors are not.
 */
export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || AwakenError.isInstance(error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string')
    return code.startsWith('08') || code.startsWith('57P') || /^E[A-Z]+$/.test(code);
  const message = error instanceof Error ? error.message : '';
  return /Connection terminated|connection error|not queryable|Client was closed|timeout exceeded when trying to connect/i.test(
    message,
  );
}

/** Serialization failure or deadlock: the transaction wrote nothing and may run again. */
export function isTransactionRetry(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

/** Any failure that is not an AwakenError becomes a retryable `store_failure`. */
export function toStoreError(error: unknown): AwakenError {
  if (AwakenError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AwakenError('store_failure', `postgres: ${message}`, { cause: error, retryable: true });
}
