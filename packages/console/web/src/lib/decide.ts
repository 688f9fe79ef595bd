import { ApiError, api } from './api';

/** Why an answer did not take: the console shows `message`; `stale` when the question is gone. */
export class AnswerRefused extends Error {
  constructor(
    readonly kind: 'second_approver' | 'answered' | 'expired' | 'invalid' | 'other',
    message: string,
  ) {
    super(message);
  }
  /** The question no longer waits (answered elsewhere, expired): its buttons go. */
  get stale(): boolean {
    return this.kind === 'answered' || this.kind === 'expired';
  }
}

/** A server error (an {@link ApiError}, or a raw `{"error":{code,message}}` text) as a sentence. */
export function readableRefusal(error: unknown): AnswerRefused {
  let code = '';
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof ApiError) code = error.code;
  else {
    try {
      const body = JSON.parse(message) as { error?: { code?: string; message?: string } };
      if (body?.error) {
        code = body.error.code ?? '';
        message = body.error.message ?? message;
      }
    } catch {
      // not JSON: the message as it is
    }
  }
  if (code === 'self_approval_forbidden' || /self_approval_forbidden/.test(message))
    return new AnswerRefused(
      'second_approver',
      'You started this run, so you cannot approve it: it needs a second approver.',
    );
  if (code === 'ticket_expired' || /expired/i.test(message))
    return new AnswerRefused('expired', 'This question expired before the answer arrived.');
  if (
    code === 'decision_rejected' ||
    code === 'conflict' ||
    /no run of chat|does not wait|not waiting|nothing to continue|already/i.test(message)
  )
    return new AnswerRefused('answered', 'This question was already answered elsewhere.');
  if (code === 'validation_failed') return new AnswerRefused('invalid', message);
  return new AnswerRefused('other', message);
}

/** Answers one ticket of one run over the decision API; throws {@link AnswerRefused} when refused. */
export async function decide(runId: string, ticketId: string, result: unknown): Promise<void> {
  try {
    await api(`/v1/runs/${encodeURIComponent(runId)}/decision`, { body: { ticketId, result } });
  } catch (error) {
    throw readableRefusal(error);
  }
}
