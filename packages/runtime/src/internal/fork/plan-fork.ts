import {
  AwakenError,
  type ForkRepeat,
  type MessageRecord,
  type RunRecord,
  type ThreadRunStore,
} from '@awaken/contract';
import type { ForkPlan, ForkRunOptions } from '../../types';
import type { ResolvedAgent } from '../runtime/resolve-agents';

/** The longest `instructions` a fork takes (a system prompt, not a document). */
export const MAX_FORK_INSTRUCTIONS_LENGTH = 100_000;

function invalid(field: string, message: string): AwakenError {
  return new AwakenError('validation_failed', `${field}: ${message}`, { details: { field } });
}

function checkOptions(options: ForkRunOptions): void {
  if (typeof options !== 'object' || options === null) throw invalid('options', 'expected an object');
  const { atStep, agentId, instructions } = options;
  if (typeof atStep !== 'number' || !Number.isSafeInteger(atStep) || atStep < 1)
    throw invalid('atStep', 'expected a step number (an integer from 1)');
  if (agentId !== undefined && (typeof agentId !== 'string' || agentId.length === 0))
    throw invalid('agentId', 'expected the id of one of the runtime’s agents');
  if (instructions !== undefined && typeof instructions !== 'string')
    throw invalid('instructions', 'expected a string (the system prompt of the fork)');
  if (instructions !== undefined && instructions.length > MAX_FORK_INSTRUCTIONS_LENGTH)
    throw invalid('instructions', `longer than ${MAX_FORK_INSTRUCTIONS_LENGTH} characters`);
}

/** The agent that ran step `step` of the run: the target of the last handoff made before it. */
function agentAtStep(source: RunRecord, step: number): string {
  let agentId = source.agentId;
  for (const handoff of source.handoffs ?? []) if (handoff.step < step) agentId = handoff.toAgentId;
  return agentId;
}

/** The seqs of the run's own messages on its thread: its input through its last output. */
function rangeOf(source: RunRecord): { from: number; to: number } | undefined {
  const from = source.inputRange?.from ?? source.outputRange?.from;
  const to = source.outputRange?.to ?? source.inputRange?.to;
  return from === undefined || to === undefined ? undefined : { from, to };
}

/**
 * The non-idempotent calls that ran in `messages` (the source's, from the fork step on): a tool is
 * non-idempotent when the fork's agent or the agent that ran that step in the source (after a
 * handoff, its target) declares it so, since a fork may hand off again and reach it.
 */
function repeatsIn(
  messages: MessageRecord[],
  agent: ResolvedAgent,
  agentRanStep: (step: number) => ResolvedAgent | undefined,
): ForkRepeat[] {
  const calls = new Map<string, { arguments?: unknown }>();
  const repeats: ForkRepeat[] = [];
  for (const { message, step } of messages) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls) calls.set(call.id, call);
      continue;
    }
    if (message.role !== 'tool' || step === undefined || step < 1) continue;
    if (message.outcome !== 'succeeded' && message.outcome !== 'failed') continue;
    const ranBy = agentRanStep(step);
    const mustNotRepeat = [agent, ranBy].some(
      (candidate) => candidate?.tools.get(message.toolName)?.idempotent === false,
    );
    if (!mustNotRepeat) continue;
    const call = calls.get(message.toolCallId);
    repeats.push({
      toolCallId: message.toolCallId,
      toolName: message.toolName,
      step,
      ...(call && call.arguments !== undefined ? { arguments: call.arguments } : {}),
      outcome: message.outcome,
      ...(message.content === undefined ? {} : { result: message.content }),
    });
  }
  return repeats;
}

/**
 * Plans a fork of `sourceRunId` at step `options.atStep` (checked before anything is written): the
 * fork's history is the source thread up to the last message the source had when that step began,
 * and its repeat guard lists the non-idempotent calls the source ran from that step on (with those
 * its own source's fork listed, for a fork of a fork). A child run of a sub-agent is not forked (its
 * parent is); a step the run never started, or an unknown agent, is `validation_failed` naming the
 * field; an unknown run is `not_found`.
 */
export async function planFork(
  store: ThreadRunStore,
  agentFor: (agentId: string) => ResolvedAgent,
  sourceRunId: string,
  options: ForkRunOptions,
): Promise<ForkPlan> {
  checkOptions(options);
  const source = await store.getRun(sourceRunId);
  if (!source)
    throw new AwakenError('not_found', `run ${sourceRunId} not found`, { details: { runId: sourceRunId } });
  if (source.parentRunId !== undefined) {
    throw invalid(
      'runId',
      `run ${sourceRunId} is a sub-agent's child run of run ${source.parentRunId}: fork the parent run instead`,
    );
  }
  const step = options.atStep;
  if (step > source.steps) {
    throw invalid(
      'atStep',
      source.steps === 0
        ? `run ${sourceRunId} has not started a step yet: nothing to fork`
        : `run ${sourceRunId} has ${source.steps} step${source.steps === 1 ? '' : 's'}: fork at step 1 to ${source.steps}`,
    );
  }
  const agentId = options.agentId ?? agentAtStep(source, step);
  let agent: ResolvedAgent;
  try {
    agent = agentFor(agentId);
  } catch (error) {
    if (!AwakenError.hasCode(error, 'invalid_config')) throw error;
    throw invalid('agentId', error.message);
  }
  const range = rangeOf(source);
  const messages = range ? await store.readMessages(source.threadId, range) : [];
  const own = messages.filter((record) => record.runId === source.runId);
  const firstAfter = own.find((record) => (record.step ?? 0) >= step);
  const atSeq = firstAfter ? firstAfter.seq - 1 : (range?.to ?? (await store.messageCount(source.threadId)));
  const later = own.filter((record) => record.seq > atSeq);
  const agentRanStep = (at: number): ResolvedAgent | undefined => {
    try {
      return agentFor(agentAtStep(source, at));
    } catch {
      return undefined; // an agent no longer registered: the fork's own agent decides
    }
  };
  const repeats = [...repeatsIn(later, agent, agentRanStep), ...(source.forkOf?.repeats ?? [])];
  return {
    agentId,
    forkOf: {
      runId: source.runId,
      threadId: source.threadId,
      step,
      atSeq,
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
      repeats,
    },
  };
}
