import type { A2aMessage, A2aPart } from '../wire/a2a-types';
import {
  AGENT_PATH_SEPARATOR,
  type JsonSchema,
  type OpenTicket,
  indeterminateQuestionOf,
  isApprovalTicket,
  questionKindOf,
} from '@awaken/contract';

/** The `type` of the data part that asks for an approval (yes/no, optionally with edited arguments). */
export const APPROVAL_REQUEST_TYPE = 'tool-approval-request';
/** The `type` of the data part that asks for a value (a client tool's output, a human's input). */
export const INPUT_REQUEST_TYPE = 'tool-input-request';
/**
 * The `type` of the data part that asks whether a call that must never run twice happened before its
 * process died (an `indeterminate` ticket): answered `retry`, `result` or `fail`.
 */
export const INDETERMINATE_REQUEST_TYPE = 'tool-indeterminate-request';

/** JSON Schema of the data part that answers an approval request. */
export const APPROVAL_ANSWER_SCHEMA = {
  type: 'object',
  properties: {
    approved: { type: 'boolean' },
    approvalId: { type: 'string' },
    toolCallId: { type: 'string' },
    reason: { type: 'string' },
    editedArguments: {},
  },
  required: ['approved', 'approvalId'],
} as const;

/** JSON Schema of the data part that answers an input request, given the ticket's schema of the value. */
export function inputAnswerSchema(output: unknown) {
  return {
    type: 'object',
    properties: { approvalId: { type: 'string' }, toolCallId: { type: 'string' }, output: output ?? {} },
    required: ['approvalId', 'output'],
  };
}

/**
 * JSON Schema of the data part that answers an indeterminate request: the ticket's own answer
 * schema (`{outcome: 'retry'}`, `{outcome: 'result', result?}`, `{outcome: 'fail', reason?}`), its
 * members beside `approvalId` and `toolCallId?`.
 */
export function indeterminateAnswerSchema(answer: JsonSchema) {
  const properties = (answer.properties ?? {}) as Record<string, unknown>;
  const required = Array.isArray(answer.required) ? (answer.required as string[]) : [];
  return {
    type: 'object',
    properties: { approvalId: { type: 'string' }, toolCallId: { type: 'string' }, ...properties },
    required: ['approvalId', ...required],
  };
}

/** The `type` and answer schema of a ticket's data part, by the kind of question it asks. */
function requestOf(ticket: OpenTicket) {
  switch (questionKindOf(ticket)) {
    case 'approval':
      return { type: APPROVAL_REQUEST_TYPE, responseSchema: APPROVAL_ANSWER_SCHEMA };
    case 'indeterminate': {
      const { responseSchema, outcomes } = indeterminateQuestionOf(ticket);
      return {
        type: INDETERMINATE_REQUEST_TYPE,
        responseSchema: indeterminateAnswerSchema(responseSchema),
        outcomes,
      };
    }
    default:
      return { type: INPUT_REQUEST_TYPE, responseSchema: inputAnswerSchema(ticket.responseSchema) };
  }
}

/**
 * What a sub-agent's question (a nested ticket) adds to its data part: the inner call as it would
 * run and the agent path, so a client shows `janitor › delete_file {"path":…}` while answering the
 * delegating call's `approvalId` on this task.
 */
function nestedData(ticket: OpenTicket) {
  const nested = ticket.nested;
  if (!nested) return {};
  return {
    nested: {
      toolName: nested.toolName,
      input: nested.arguments ?? null,
      agentPath: nested.agentPath,
      runId: nested.runId,
      ticketId: nested.ticketId,
    },
  };
}

/**
 * The data part of one ticket: what is asked, of which call, how to answer, until when. An
 * indeterminate ticket's part also lists its `outcomes`; a sub-agent's question also `nested` (the
 * inner tool, its input and the agent path).
 */
export function ticketDataPart(ticket: OpenTicket): A2aPart {
  const { type, responseSchema, ...more } = requestOf(ticket);
  const data = {
    type,
    approvalId: ticket.ticketId,
    toolCallId: ticket.toolCallId,
    toolName: ticket.toolName,
    input: ticket.arguments ?? null,
    ...(ticket.message ? { message: ticket.message } : {}),
    responseSchema,
    ...more,
    ...(ticket.expiresAt === undefined ? {} : { expiresAt: new Date(ticket.expiresAt).toISOString() }),
    ...nestedData(ticket),
  };
  return { data, mediaType: 'application/json' };
}

function question(ticket: OpenTicket): string {
  const nested = ticket.nested;
  if (nested && isApprovalTicket(ticket)) {
    const path = [...nested.agentPath.slice(1), nested.toolName].join(AGENT_PATH_SEPARATOR);
    return `Approve ${path}(${JSON.stringify(nested.arguments ?? {})})?`;
  }
  if (isApprovalTicket(ticket))
    return `Approve ${ticket.toolName}(${JSON.stringify(ticket.arguments ?? {})})?`;
  return ticket.message || `${ticket.toolName} needs a value.`;
}

/**
 * The agent message of an `input-required` status: a text part saying what is asked, then one data
 * part per open ticket ({@link ticketDataPart}).
 */
export function inputRequiredMessage(
  tickets: readonly OpenTicket[],
  ids: { messageId: string; taskId: string; contextId: string },
): A2aMessage {
  const text = tickets.map(question).join('\n');
  return {
    ...ids,
    role: 'ROLE_AGENT',
    parts: [{ text, mediaType: 'text/plain' }, ...tickets.map(ticketDataPart)],
  };
}
