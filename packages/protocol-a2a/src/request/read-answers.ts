import type { A2aMessage } from '../wire/a2a-types';
import { A2aError } from '../wire/a2a-errors';

/** One answer a continuation message carries in a data part. */
export type TicketAnswer =
  | {
      kind: 'approval';
      /** The ticket id the `tool-approval-request` named. */
      approvalId?: string;
      toolCallId?: string;
      approved: boolean;
      reason?: string;
      editedArguments?: unknown;
      /** Where it was: `params.message.parts.<i>.data`. */
      field: string;
    }
  | { kind: 'output'; approvalId?: string; toolCallId?: string; output: unknown; field: string };

/** The members of an indeterminate answer a data part carries beside the ticket's ids. */
const INDETERMINATE_MEMBERS = ['outcome', 'result', 'reason'] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function optionalString(data: Record<string, unknown>, key: string, field: string): string | undefined {
  const value = data[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '')
    throw new A2aError('invalid_params', `invalid params: ${field}.${key}: expected a non-empty string`, {
      field: `${field}.${key}`,
    });
  return value;
}

function readAnswer(data: unknown, field: string): TicketAnswer {
  if (!isRecord(data))
    throw new A2aError('invalid_params', `invalid params: ${field}: expected an answer object`, { field });
  const approvalId = optionalString(data, 'approvalId', field);
  const toolCallId = optionalString(data, 'toolCallId', field);
  if (approvalId === undefined && toolCallId === undefined)
    throw new A2aError('invalid_params', `invalid params: ${field}.approvalId: name the ticket answered`, {
      field: `${field}.approvalId`,
    });
  const ids = { ...(approvalId ? { approvalId } : {}), ...(toolCallId ? { toolCallId } : {}), field };
  if ('approved' in data) {
    if (typeof data.approved !== 'boolean')
      throw new A2aError('invalid_params', `invalid params: ${field}.approved: expected a boolean`, {
        field: `${field}.approved`,
      });
    const reason = optionalString(data, 'reason', field);
    return {
      kind: 'approval',
      ...ids,
      approved: data.approved,
      ...(reason === undefined ? {} : { reason }),
      ...(data.editedArguments === undefined ? {} : { editedArguments: data.editedArguments }),
    };
  }
  // the answer to a tool-indeterminate-request: the outcome and its members are the value given
  if ('outcome' in data) {
    const answer = Object.fromEntries(
      INDETERMINATE_MEMBERS.flatMap((key) => (data[key] === undefined ? [] : [[key, data[key]]])),
    );
    return { kind: 'output', ...ids, output: answer };
  }
  if ('output' in data) return { kind: 'output', ...ids, output: data.output };
  throw new A2aError(
    'invalid_params',
    `invalid params: ${field}: expected "approved" (an approval), "outcome" (retry, result or fail) or "output" (a value)`,
    {
      field,
    },
  );
}

/**
 * The answers of a message that continues a waiting task: one data part per answered ticket,
 * `{approved, approvalId, toolCallId?, reason?, editedArguments?}`, `{approvalId, toolCallId?,
 * outcome: 'retry' | 'result' | 'fail', result?, reason?}` (an indeterminate request: read as the value
 * `{outcome, result?, reason?}`) or `{approvalId, toolCallId?, output}`;
 * text parts beside them are a comment. A message with no data part is refused (`-32602`): free text
 * is never read as a decision.
 */
export function readAnswers(message: A2aMessage): TicketAnswer[] {
  const answers: TicketAnswer[] = [];
  message.parts.forEach((part, index) => {
    if ('data' in part) answers.push(readAnswer(part.data, `params.message.parts.${index}.data`));
  });
  if (answers.length === 0)
    throw new A2aError(
      'invalid_params',
      'invalid params: params.message.parts: the task waits for answers to its tickets: send one data part per answer ({approved, approvalId}, {approvalId, outcome} or {approvalId, output}); free text is not read as a decision',
      { field: 'params.message.parts' },
    );
  return answers;
}
