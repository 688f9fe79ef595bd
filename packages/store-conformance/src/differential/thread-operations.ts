import { type RunRecord, jointAcquirer, runStatusSchema } from '@awaken/contract';
import fc from 'fast-check';
import { runRecord } from '../internal/run-record';
import { type Operation, operation, resolveFence } from './operation';
import { pages } from './paging';
import { POOLS } from './pools';
import { favouring, fenceRef, payload, record, runId, sometimesOdd, threadId } from './values';

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const count = sometimesOdd(fc.constantFrom(0, 1, 2, 3, 5));

/** A message to append: user text, an assistant turn with a tool call, or a tool result. */
const message = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .string({ maxLength: 6 })
      .map((content) => ({ visibility: 'external', message: { role: 'user', content } })),
  },
  {
    // a user message longer than a title (cut at 100 code points, never inside a surrogate pair)
    weight: 1,
    arbitrary: fc
      .constantFrom(`${'ab '.repeat(33)}\u{1F600}tail`, ` \n${'é'.repeat(120)}`, '  \t ')
      .map((content) => ({ visibility: 'external', message: { role: 'user', content } })),
  },
  {
    weight: 4,
    arbitrary: payload.map((args) => ({
      runId: 'r0',
      step: 1,
      visibility: 'internal',
      message: {
        role: 'assistant',
        text: 'calling',
        toolCalls: [{ id: 'c0', name: 'lookup', arguments: args }],
      },
    })),
  },
  {
    weight: 4,
    arbitrary: payload.map((content) => ({
      visibility: 'internal',
      message: { role: 'tool', toolCallId: 'c0', toolName: 'lookup', outcome: 'succeeded', content },
    })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      { visibility: 'secret', message: { role: 'user', content: 'x' } },
      'not a message',
    ),
  },
);
const messages = sometimesOdd(fc.array(message, { maxLength: 3 }));

/** `current` reads the thread's message count first (the read is part of the outcome). */
const expected = fc.oneof(
  { weight: 4, arbitrary: fc.constant('current' as const) },
  { weight: 1, arbitrary: count },
);

async function resolveCount(
  stores: Parameters<Operation['run']>[0],
  thread: unknown,
  value: unknown,
): Promise<{ count: unknown; read?: unknown }> {
  if (value !== 'current') return { count: value };
  try {
    const current = await stores.threadRuns.messageCount(thread as string);
    return { count: current, read: current };
  } catch {
    return { count: 0, read: 'unreadable' };
  }
}

const threadOps = fc.oneof(
  fc
    .record({
      id: fc.oneof({ weight: 8, arbitrary: threadId }, { weight: 1, arbitrary: fc.constant(undefined) }),
      metadata: optional(record),
    })
    .map((args) =>
      operation('createThread', args, (stores) => stores.threadRuns.createThread(args as never)),
    ),
  fc
    .record({
      method: fc.constantFrom('getThread', 'deleteThread', 'getThreadState', 'messageCount' as const),
      threadId,
    })
    .map((args) =>
      operation(args.method, args, (stores) => stores.threadRuns[args.method](args.threadId as string)),
    ),
  fc
    .record({ threadId, metadata: record })
    .map((args) =>
      operation('updateThreadMetadata', args, (stores) =>
        stores.threadRuns.updateThreadMetadata(args.threadId as string, args.metadata as never),
      ),
    ),
  fc
    .record({
      limit: optional(sometimesOdd(fc.constantFrom(1, 2))),
      cursor: optional(fc.constantFrom<unknown>('-5', 'x', '0')),
      order: optional(fc.constantFrom<unknown>('oldest', 'newest', 'newest', 'sideways')),
    })
    .map((args) =>
      operation('listThreads', args, (stores) =>
        pages(
          (cursor) =>
            stores.threadRuns.listThreads({
              limit: args.limit,
              cursor: cursor ?? args.cursor,
              order: args.order,
            } as never),
          6,
        ),
      ),
    ),
);

const messageOps = fc.oneof(
  fc.record({ threadId, expectedLength: expected, messages }).map((args) =>
    operation('appendMessages', args, async (stores) => {
      const { count: expectedLength, read } = await resolveCount(stores, args.threadId, args.expectedLength);
      const appended = await stores.threadRuns.appendMessages(
        args.threadId as string,
        {
          expectedLength,
          messages: args.messages,
        } as never,
      );
      return { read, appended };
    }),
  ),
  fc
    .record({
      threadId,
      from: optional(count),
      to: optional(count),
      visibility: optional(sometimesOdd(fc.constantFrom('external', 'internal'))),
    })
    .map((args) =>
      operation('readMessages', args, (stores) =>
        stores.threadRuns.readMessages(args.threadId as string, args as never),
      ),
    ),
);

const runOps = fc.oneof(
  fc
    .record({
      runId,
      threadId,
      status: fc.constantFrom(...runStatusSchema.options),
      version: fc.constantFrom(0, 0, 0, 3),
      state: record,
    })
    .map((args) =>
      operation('createRun', args, (stores) =>
        stores.threadRuns.createRun(
          runRecord(args.runId as string, args.threadId as string, args as Partial<RunRecord>),
        ),
      ),
    ),
  fc
    .record({ runId })
    .map((args) => operation('getRun', args, (stores) => stores.threadRuns.getRun(args.runId as string))),
  fc
    .record({
      threadId,
      limit: optional(sometimesOdd(fc.constantFrom(1, 2))),
      status: optional(sometimesOdd(fc.subarray([...runStatusSchema.options]))),
    })
    .map((args) =>
      operation('listRuns', args, (stores) =>
        pages(
          (cursor) => stores.threadRuns.listRuns(args.threadId as string, { ...args, cursor } as never),
          6,
        ),
      ),
    ),
  fc
    .record({
      runId: favouring(POOLS.runs),
      threadId: fc.oneof({ weight: 8, arbitrary: fc.constant('own') }, { weight: 1, arbitrary: threadId }),
      runThreadId: fc.oneof(
        { weight: 12, arbitrary: fc.constant('same') },
        { weight: 1, arbitrary: threadId },
      ),
      status: fc.constantFrom(...runStatusSchema.options),
      versionStep: fc.constantFrom(1, 1, 1, 1, 1, 0, 2),
      expectedMessageCount: expected,
      messages,
      threadState: optional(record),
      state: record,
      fence: fenceRef,
    })
    .map((args) =>
      operation('commitCheckpoint', args, async (stores, env) => {
        const stored = await stores.threadRuns.getRun(args.runId).catch(() => null);
        const thread = args.threadId === 'own' ? (stored?.threadId ?? 't0') : args.threadId;
        const { count, read } = await resolveCount(stores, thread, args.expectedMessageCount);
        const run = runRecord(
          args.runId,
          (args.runThreadId === 'same' ? thread : args.runThreadId) as string,
          {
            ...stored,
            status: args.status,
            version: (stored?.version ?? 0) + args.versionStep,
            state: args.state as Record<string, unknown>,
          },
        );
        const committed = await stores.threadRuns.commitCheckpoint({
          trigger: 'tool_results_committed',
          threadId: thread,
          expectedMessageCount: count,
          messages: args.messages,
          run,
          threadState: args.threadState,
          fence: resolveFence(env, args.runId, args.fence),
        } as never);
        return { read, committed };
      }),
    ),
);

const leaseMs = sometimesOdd(fc.constantFrom(1, 1_000, 30_000, 86_400_001));
const owner = sometimesOdd(fc.constantFrom(...POOLS.owners));
/** Which lease a holder presents: the run's latest, an earlier one, or any proof. */
const proofRef = fc.oneof(
  { weight: 6, arbitrary: fc.constant('latest' as const) },
  { weight: 1, arbitrary: fc.constant('earlier' as const) },
  { weight: 1, arbitrary: fc.record({ owner, fence: sometimesOdd(fc.constantFrom(1, 2)) }) },
);

const leaseOps = fc.oneof(
  fc
    .record({ runId, owner, leaseMs })
    .map((args) =>
      operation('acquireRun', args, (stores) =>
        stores.threadRuns.acquireRun(
          args.runId as string,
          { owner: args.owner, leaseMs: args.leaseMs } as never,
        ),
      ),
    ),
  // the lease, the log's fence and the run in one call (AcquireWithFence), where both backends offer it
  fc.record({ runId, owner, leaseMs }).map((args) =>
    operation('acquireRunWithFence', args, async (stores) => {
      const acquirer = jointAcquirer(stores.threadRuns, stores.eventLog);
      if (!acquirer) return 'no joint acquirer';
      return acquirer.acquireRunWithFence(
        args.runId as string,
        { owner: args.owner, leaseMs: args.leaseMs } as never,
      );
    }),
  ),
  fc
    .record({ method: fc.constantFrom('renewRun', 'releaseRun' as const), runId, proof: proofRef, leaseMs })
    .map((args) =>
      operation(args.method, args, (stores, env) => {
        const granted = typeof args.runId === 'string' ? (env.leases.get(args.runId) ?? []) : [];
        const lease =
          args.proof === 'latest' ? granted.at(-1) : args.proof === 'earlier' ? granted.at(-2) : undefined;
        const proof =
          typeof args.proof === 'object'
            ? { runId: args.runId, ...args.proof }
            : (lease ?? { runId: args.runId, owner: 'o0', fence: 1 });
        return args.method === 'renewRun'
          ? stores.threadRuns.renewRun({ ...proof, leaseMs: args.leaseMs } as never)
          : stores.threadRuns.releaseRun(proof as never);
      }),
    ),
);

/** Thread, message log, run and run lease operations, valid and invalid. */
export const threadOperation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: threadOps },
  { weight: 3, arbitrary: messageOps },
  { weight: 4, arbitrary: runOps },
  { weight: 2, arbitrary: leaseOps },
);
