import {
  AwakenError,
  assertNever,
  type ToolCallDecision,
  type UserMessage,
  decisionControl,
  parseWith,
  runContextSchema,
  userMessageSchema,
} from '@awaken/contract';
import { z } from 'zod';
import type { InjectRequest, InjectResult, SubmitRequest, SubmittedRun } from '../../types';
import { enqueueResume } from '../resume/enqueue-resume';
import type { ServiceContext } from '../service/service-context';
import { refuseChildRun } from '../child-runs/refuse-child-run';
import { activeRun, notFound } from './run-lookup';

const injectRequestSchema = z.object({
  threadId: z.string().min(1),
  input: z.union([z.string().min(1), z.array(userMessageSchema).min(1)]),
  mode: z.enum(['queue', 'steer', 'interrupt', 'resume']),
  agentId: z.string().min(1).optional(),
  context: runContextSchema.optional(),
});

const messagesOf = (input: string | UserMessage[]): UserMessage[] =>
  typeof input === 'string' ? [{ role: 'user', content: input }] : input;

/**
 * Injected user input: `queue` — a background run after the thread's current work; `interrupt` —
 * latest wins, then the input runs; `steer` — the thread's executing run reads it at its next step
 * (if it ends first, the input becomes the thread's next run);
 * `resume` — the thread's waiting run continues with it: its open tool calls are cancelled as
 * superseded, the input joins its history, and the same run resumes. `context` says who sent it:
 * the context of the new run (`queue`, `interrupt`: the sender starts it), or carried with the input
 * (`steer`, `resume`), so the run counts the sender among the askers of what follows.
 */
export async function injectInput(
  context: ServiceContext,
  submit: (request: SubmitRequest) => Promise<SubmittedRun>,
  input: InjectRequest,
): Promise<InjectResult> {
  const request = parseWith(injectRequestSchema, input, 'inject request');
  const { threadRuns, inbox } = context.stores;
  const thread = await threadRuns.getThread(request.threadId);
  if (!thread) throw notFound(`thread ${request.threadId}`);
  // the thread of a sub-agent's child run takes input only from its parent's call
  const latest = thread.latestRunId ? await threadRuns.getRun(thread.latestRunId) : null;
  if (latest) await refuseChildRun(threadRuns, latest, 'send input');
  const id = `input:${context.config.createId()}`;
  const sender = request.context === undefined ? {} : { context: request.context };
  switch (request.mode) {
    case 'queue':
    case 'interrupt': {
      const agentId = request.agentId ?? latest?.agentId;
      if (!agentId)
        throw new AwakenError('validation_failed', 'agentId: the thread has no run to take the agent from');
      const submitted = await submit({
        agentId,
        threadId: request.threadId,
        input: request.input,
        mode: request.mode === 'queue' ? 'background' : 'foreground',
        ifBusy: request.mode === 'queue' ? 'queue' : 'interrupt',
        ...sender,
      });
      return { mode: request.mode, runId: submitted.runId, dispatchId: submitted.dispatchId };
    }
    case 'steer': {
      const view = await activeRun(context, request.threadId);
      if (view?.kind !== 'active') {
        throw new AwakenError('conflict', `thread ${request.threadId} has no executing run to steer`, {
          details: { threadId: request.threadId },
        });
      }
      await inbox.put(view.runId, {
        kind: 'input',
        id,
        messages: messagesOf(request.input),
        at: Date.now(),
        ...sender,
      });
      // the run may have ended meanwhile: a dispatch for it makes a worker turn the input into the next run
      const after = await threadRuns.getRun(view.runId);
      const followUp = after?.status === 'done' ? await enqueueResume(context, after) : null;
      return { mode: 'steer', runId: view.runId, ...(followUp ? { dispatchId: followUp.dispatchId } : {}) };
    }
    case 'resume': {
      const view = await activeRun(context, request.threadId);
      if (view?.kind !== 'open') {
        throw new AwakenError('conflict', `thread ${request.threadId} has no waiting run to resume`, {
          details: { threadId: request.threadId },
        });
      }
      for (const ticket of view.tickets) {
        const decision: ToolCallDecision = {
          toolCallId: ticket.toolCallId,
          decisionId: `${id}:${ticket.toolCallId}`,
          action: 'cancel',
          reason: 'superseded by new user input',
          updatedAt: Date.now(),
        };
        await inbox.put(view.runId, decisionControl(decision));
      }
      await inbox.put(view.runId, {
        kind: 'input',
        id,
        messages: messagesOf(request.input),
        at: Date.now(),
        ...sender,
      });
      const resume = await enqueueResume(context, view.record);
      return { mode: 'resume', runId: view.runId, ...(resume ? { dispatchId: resume.dispatchId } : {}) };
    }
    default:
      return assertNever(request.mode);
  }
}
