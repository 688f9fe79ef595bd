import { z } from 'zod';
import { tokenUsageSchema } from '../model/token-usage';
import { agentPinSchema } from './agent-pin';
import { forkOriginSchema } from './fork-origin';
import { handoffRecordSchema } from './handoff-record';
import { clientToolSchema } from '../tool/client-tool';
import { runContextSchema } from './run-context';
import { runStatusSchema } from './run-status';
import { runWaitingStateSchema } from './run-waiting-state';
import { terminationReasonSchema } from './termination-reason';

/** A time in epoch milliseconds. */
const millis = z.number().int().nonnegative();

/**
 * The run's state: a record whose top-level keys are state paths. `__proto__` is refused as a key
 * (`validation_failed` at `state.__proto__`): zod would drop it silently, so the validating and the
 * trusted store paths would store different data.
 */
const runStateSchema = z.preprocess(
  (value, context) => {
    if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
      context.issues.push({
        code: 'custom',
        message: 'a state key may not be "__proto__"',
        input: value,
        path: ['__proto__'],
      });
    }
    return value;
  },
  z.record(z.string(), z.unknown().optional()),
);

/** Where a run request came from. */
export const runRequestOriginSchema = z.enum(['user', 'a2a', 'internal']);
export type RunRequestOrigin = z.infer<typeof runRequestOriginSchema>;

/** An inclusive range of thread message `seq` numbers. */
export const seqRangeSchema = z.object({
  from: z.number().int().positive(),
  to: z.number().int().nonnegative(),
});
export type SeqRange = z.infer<typeof seqRangeSchema>;

/**
 * One user intent and the source of truth for its outcome. `version` increases by one with every
 * checkpoint; stores reject a write whose expected version is stale, so two processes can never
 * continue one run from diverging copies. `state` holds the durable run state paths
 * (`__run`, `__tool_call_scope`, `__resume_decisions`) and the plugins' persistent run-scoped keys.
 */
export const runRecordSchema = z.object({
  runId: z.string().min(1),
  threadId: z.string().min(1),
  /** The agent that started the run (the request's `agentId`); a handoff does not change it. */
  agentId: z.string().min(1),
  /** The agent running the run since its last handoff; absent until one happens (see `activeAgentIdOf`). */
  activeAgentId: z.string().min(1).optional(),
  /** The run's handoffs, oldest first; absent until one happens. */
  handoffs: z.array(handoffRecordSchema).optional(),
  origin: runRequestOriginSchema,
  /**
   * The definition of the agent that started the run, as hashes (see `agentPinSchema`): a resume
   * compares it with the agent deployed now. Absent on runs stored before pins existed.
   */
  agentPin: agentPinSchema.optional(),
  /** The run whose tool call started this one (a child run of a sub-agent call, `origin: 'internal'`). */
  parentRunId: z.string().optional(),
  /** The parent's tool call that started this child run (with `parentRunId`). */
  parentCallId: z.string().optional(),
  /**
   * For a child run: the agent ids from the top-level run's agent down to this run's agent (this
   * run's `agentId` last). Its ancestors' inheritable plugins (`Plugin.inheritable`) govern it.
   */
  agentPath: z.array(z.string().min(1)).optional(),
  /** For a run forked from another at one of its steps (`forkRun`): the source run and the fork point. */
  forkOf: forkOriginSchema.optional(),
  status: runStatusSchema,
  termination: terminationReasonSchema.optional(),
  waiting: runWaitingStateSchema.optional(),
  steps: z.number().int().nonnegative(),
  usage: tokenUsageSchema,
  state: runStateSchema,
  /** The caller's context from the run request (identity, tenant, request metadata). */
  context: runContextSchema.optional(),
  /** Client-executed tools the run request declared; every activation offers them to the model. */
  clientTools: z.array(clientToolSchema).optional(),
  inputRange: seqRangeSchema.optional(),
  outputRange: seqRangeSchema.optional(),
  /** The final assistant text, once done. */
  response: z.string().optional(),
  version: z.number().int().nonnegative(),
  createdAt: millis,
  updatedAt: millis,
  startedAt: millis.optional(),
  finishedAt: millis.optional(),
});
export type RunRecord = z.infer<typeof runRecordSchema>;
