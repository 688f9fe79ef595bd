import {
  type AgentEvent,
  AwakenError,
  type Checkpoint,
  type RunRecord,
  jointCheckpointWriter,
} from '@awaken/contract';
import { afterAll, afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { type PostgresStores, createPostgresStores } from '../../create-postgres-stores';
import { PostgresRunEventLog } from '../../postgres-run-event-log';
import { adminPool, dropSchema, uniqueSchema } from '../../../test-support/pg-harness';

const url = inject('postgresUrl');
const admin = adminPool(url);
afterAll(() => admin.end());

// The joint write (append, then checkpoint, in one function call) against the two calls it replaces:
// the same data in both orders of success and refusal, and nothing at all when the append is refused.

const run = (version: number, status: RunRecord['status'] = 'running'): RunRecord => ({
  runId: 'r1',
  threadId: 'th1',
  agentId: 'agent',
  origin: 'user',
  status,
  steps: 0,
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  state: {},
  version,
  createdAt: 1,
  updatedAt: 1,
});

const checkpoint = (version: number, fence?: number): Checkpoint => ({
  trigger: 'user_message',
  threadId: 'th1',
  expectedMessageCount: version - 1,
  messages: [{ visibility: 'external', message: { role: 'user', content: `m${version}` } }],
  run: run(version),
  ...(fence === undefined ? {} : { fence }),
});

const events = (from: number, count: number): AgentEvent[] =>
  Array.from({ length: count }, (_, index) => ({
    type: 'step_start',
    step: from + index,
    runId: 'r1',
    seq: from + index,
    at: 1,
  }));

/** Everything a reader can see of run r1 and thread th1. */
async function snapshot(stores: PostgresStores) {
  return {
    events: await stores.eventLog.read('r1'),
    run: await stores.threadRuns.getRun('r1'),
    messages: (await stores.threadRuns.readMessages('th1')).map((entry) => [entry.seq, entry.message]),
  };
}

describe('checkpointWithEvents on PostgreSQL', () => {
  let joint: PostgresStores;
  let separate: PostgresStores;

  beforeEach(async () => {
    joint = createPostgresStores({ postgres: url, schema: uniqueSchema('joint') });
    separate = createPostgresStores({ postgres: url, schema: uniqueSchema('separate') });
    for (const stores of [joint, separate]) {
      await stores.threadRuns.createThread({ id: 'th1' });
      await stores.threadRuns.createRun(run(0, 'created'));
    }
  });
  afterEach(async () => {
    for (const stores of [joint, separate]) {
      await stores.close();
      await dropSchema(admin, stores.schema);
    }
  });

  it('is offered only for an event log on the same pool and schema', async () => {
    expect(jointCheckpointWriter(joint.threadRuns, joint.eventLog)).toBeDefined();
    expect(jointCheckpointWriter(joint.threadRuns, separate.eventLog)).toBeUndefined();
    const other = new PostgresRunEventLog({ postgres: url, schema: joint.schema });
    expect(jointCheckpointWriter(joint.threadRuns, other)).toBeUndefined();
    await other.close();
    expect(jointCheckpointWriter(joint.threadRuns, undefined)).toBeUndefined();
  });

  /**
   * Runs the same steps jointly and as two calls; each step is [events from, count, checkpoint
   * version, fence]. Returns the outcome of each step in both forms.
   */
  async function both(steps: Array<[number, number, number, number?]>) {
    const writer = jointCheckpointWriter(joint.threadRuns, joint.eventLog);
    if (!writer) throw new Error('no joint writer');
    const outcomes: Array<[string, string]> = [];
    for (const [from, count, version, fence] of steps) {
      const given = { runId: 'r1', events: events(from, count), ...(fence === undefined ? {} : { fence }) };
      const jointly = await writer
        .commitCheckpointWithEvents(checkpoint(version, fence), given)
        .then((outcome) =>
          outcome.status === 'committed' ? 'committed' : `checkpoint ${outcome.error.code}`,
        )
        .catch((error: unknown) => `append ${AwakenError.isInstance(error) ? error.code : String(error)}`);
      const apart = await separate.eventLog.append('r1', given.events, { fence: fence ?? 0 }).then(
        () =>
          separate.threadRuns.commitCheckpoint(checkpoint(version, fence)).then(
            () => 'committed',
            (error: unknown) => `checkpoint ${AwakenError.isInstance(error) ? error.code : String(error)}`,
          ),
        (error: unknown) => `append ${AwakenError.isInstance(error) ? error.code : String(error)}`,
      );
      outcomes.push([jointly, apart]);
    }
    return outcomes;
  }

  it('writes what append-then-commitCheckpoint writes, refusals included', async () => {
    const outcomes = await both([
      [1, 2, 1], // both succeed
      [3, 1, 1], // the append succeeds, the checkpoint is refused (stale version)
      [3, 1, 2], // the append is refused (seq 3 is taken): nothing is written
      [4, 0, 2], // no events: only the checkpoint
      [4, 3, 3],
    ]);
    expect(outcomes).toEqual([
      ['committed', 'committed'],
      ['checkpoint stale_version', 'checkpoint stale_version'],
      ['append conflict', 'append conflict'],
      ['committed', 'committed'],
      ['committed', 'committed'],
    ]);
    const jointly = await snapshot(joint);
    const apart = await snapshot(separate);
    expect(jointly).toEqual(apart);
    expect(jointly.events.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(jointly.run?.version).toBe(3);
  });

  it('writes nothing when the append is refused for a stale fence', async () => {
    const writer = jointCheckpointWriter(joint.threadRuns, joint.eventLog);
    await joint.eventLog.append('r1', events(1, 1), { fence: 5 });
    const before = await snapshot(joint);
    await expect(
      writer?.commitCheckpointWithEvents(checkpoint(1), { runId: 'r1', events: events(2, 1), fence: 4 }),
    ).rejects.toMatchObject({ code: 'stale_claim' });
    expect(await snapshot(joint)).toEqual(before);
  });

  it('rejects a bad input as validation_failed naming the field, before writing anything', async () => {
    const writer = jointCheckpointWriter(joint.threadRuns, joint.eventLog);
    const before = await snapshot(joint);
    await expect(
      writer?.commitCheckpointWithEvents(checkpoint(1), {
        runId: 'r1',
        events: [
          { type: 'step_start', step: 1, runId: 'r1', seq: Number.NaN, at: 1 } as unknown as AgentEvent,
        ],
      }),
    ).rejects.toMatchObject({ code: 'validation_failed', message: expect.stringContaining('seq') });
    await expect(
      writer?.commitCheckpointWithEvents(
        { ...checkpoint(1), expectedMessageCount: -1 },
        { runId: 'r1', events: [] },
      ),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('expectedMessageCount'),
    });
    expect(await snapshot(joint)).toEqual(before);
  });
});
