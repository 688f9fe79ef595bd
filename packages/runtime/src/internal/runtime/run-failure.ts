import { AwakenError, type TerminationReason, formatZodIssues } from '@awaken/contract';
import { z } from 'zod';
import type { RunFailure } from '../../types';

const runFailureSchema = z.object({
  message: z.string().min(1),
  code: z.string().min(1).optional(),
});

/** Checks the failure given to `failRun`: `validation_failed` naming the field, nothing written. */
export function checkFailure(failure: unknown): RunFailure {
  const parsed = runFailureSchema.safeParse(failure);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.map(String).join('.') || 'failure';
    throw new AwakenError('validation_failed', `invalid failure: ${formatZodIssues(parsed.error.issues)}`, {
      details: { field },
    });
  }
  return parsed.data;
}

/**
 * The abort reason of a run ended by `failRun`: the activation stops as for a cancel, but its
 * termination is `error` with this message and code (a plain string reason means `cancelled`).
 */
export class RunFailureReason {
  constructor(readonly failure: RunFailure) {}

  termination(): TerminationReason {
    const { message, code } = this.failure;
    return { type: 'error', message, ...(code === undefined ? {} : { code }) };
  }
}
