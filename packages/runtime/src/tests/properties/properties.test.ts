import { createTestStore } from '../../../test-support/recording-store';
import { type ScriptedTurn, createScriptedModel } from '@awaken/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readToolCallStates } from '@awaken/contract';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import {
  approve,
  createHarness,
  historyIsValid,
  reject,
  statusAlwaysDerived,
  storedRun,
} from '../../../test-support/harness';
import type { RunStateSnapshot } from '../../types';

type Kind = 'safe' | 'approve' | 'reject' | 'fail';

const scenario = fc.record({
  rounds: fc.array(
    fc.array(fc.constantFrom<Kind>('safe', 'approve', 'reject', 'fail'), { minLength: 1, maxLength: 4 }),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  parallel: fc.boolean(),
  picks: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  cold: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
});

function toolFor(kind: Kind): string {
  return kind === 'safe' ? 'safe' : kind === 'fail' ? 'fails' : 'danger';
}

describe('properties', () => {
  it('random rounds, suspensions and decision orders keep every invariant', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ rounds, parallel, picks, cold }) => {
        const plan = new Map<string, Kind>();
        for (const [r, round] of rounds.entries())
          for (const [i, kind] of round.entries()) plan.set(`r${r}_${i}`, kind);
        const model = createScriptedModel((request): ScriptedTurn => {
          const r = request.messages.filter((message) => message.role === 'assistant').length;
          const round = rounds[r];
          if (!round) return { text: 'end' };
          return {
            toolCalls: round.map((kind, i) => ({ id: `r${r}_${i}`, name: toolFor(kind), arguments: { i } })),
          };
        });
        const danger = recordingTool('danger');
        const safe = recordingTool('safe');
        const fails = {
          ...recordingTool('fails').tool,
          execute: () => {
            throw new Error('tool broke');
          },
        };
        const store = createTestStore();
        const snapshots: RunStateSnapshot[] = [];
        const make = () =>
          createHarness(
            {
              tools: [danger.tool, safe.tool, fails],
              plugins: [approvalPlugin(['danger'])],
              toolExecution: parallel ? 'parallel' : 'sequential',
            },
            { store, model, onStateChange: (snapshot) => snapshots.push(snapshot) },
          );
        let harness = make();
        let result = await harness.runtime.runToCompletion({ agentId: 'agent', runId: 'run', input: 'go' });
        let turn = 0;
        while (result.status === 'waiting') {
          const tickets = result.waiting?.tickets ?? [];
          const ticket = tickets[(picks[turn % picks.length] ?? 0) % tickets.length];
          if (!ticket) throw new Error('waiting without tickets');
          if (cold[turn % cold.length]) harness = make();
          const id = ticket.toolCallId;
          const decision =
            plan.get(id) === 'reject' ? reject(id, 'no', `x${turn}`) : approve(id, {}, `x${turn}`);
          result = await harness.runtime.resumeRun('run', { decisions: [decision] }).result;
          turn += 1;
          if (turn > 50) throw new Error('no progress');
        }
        expect(result).toMatchObject({ status: 'done', response: 'end' });
        const states = readToolCallStates(await storedRun(store, 'run'));
        expect(states).toHaveLength(rounds.at(-1)?.length ?? 0);
        expect(states.every((state) => state.resultCommitted)).toBe(true);
        const outcomes = (await store.readMessages(result.threadId)).flatMap((record) =>
          record.message.role === 'tool'
            ? [[record.message.toolCallId, record.message.outcome] as const]
            : [],
        );
        expect(outcomes).toHaveLength(plan.size);
        for (const [callId, outcome] of outcomes) {
          const kind = plan.get(callId);
          const expected =
            kind === 'safe' || kind === 'approve' ? 'succeeded' : kind === 'fail' ? 'failed' : 'cancelled';
          expect(outcome).toBe(expected);
        }
        for (const [id, kind] of plan) {
          if (kind === 'reject') expect(danger.count(id)).toBe(0);
          if (kind === 'approve') expect(danger.count(id)).toBe(1);
          if (kind === 'safe') expect(safe.count(id)).toBe(1);
        }
        for (const request of model.requests) expect(historyIsValid(request.messages)).toBe(true);
        const messages = (await store.readMessages(result.threadId)).map((record) => record.message);
        expect(historyIsValid(messages)).toBe(true);
        expect(statusAlwaysDerived(snapshots)).toBe(true);
        expect(model.callCount).toBe(rounds.length + 1);
      }),
      { numRuns: 60 },
    );
  });

  it('hot runs with decisions arriving at random moments (concurrent model) keep the invariants', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ rounds, parallel, picks }) => {
        const plan = new Map<string, Kind>();
        for (const [r, round] of rounds.entries())
          for (const [i, kind] of round.entries()) plan.set(`r${r}_${i}`, kind);
        const model = createScriptedModel((request): ScriptedTurn => {
          const r = request.messages.filter((message) => message.role === 'assistant').length;
          const round = rounds[r];
          if (!round) return { text: 'end' };
          return {
            toolCalls: round.map((kind, i) => ({ id: `r${r}_${i}`, name: toolFor(kind), arguments: { i } })),
          };
        });
        const danger = recordingTool('danger');
        const safe = {
          ...recordingTool('safe').tool,
          execute: async (_args: unknown, context: { toolCallId: string }) => {
            await new Promise((resolve) =>
              setTimeout(resolve, (picks[Number(context.toolCallId.slice(-1))] ?? 0) % 3),
            );
            return { ok: true };
          },
        };
        const snapshots: RunStateSnapshot[] = [];
        const { runtime, store } = createHarness(
          {
            tools: [danger.tool, safe],
            plugins: [approvalPlugin(['danger'])],
            toolExecution: parallel ? 'parallel' : 'sequential',
          },
          { model, onStateChange: (snapshot) => snapshots.push(snapshot) },
        );
        const handle = runtime.run({ agentId: 'agent', runId: 'run', input: 'go', onSuspend: 'wait' });
        const decided = new Set<string>();
        let finished = false;
        void handle.result.finally(() => {
          finished = true;
        });
        let turn = 0;
        while (!finished) {
          const latest = snapshots.at(-1);
          const suspended = (latest?.calls ?? []).filter(
            (call) => call.status === 'suspended' && !decided.has(call.callId),
          );
          const call = suspended[(picks[turn % picks.length] ?? 0) % Math.max(1, suspended.length)];
          if (call) {
            decided.add(call.callId);
            const id = call.callId;
            await handle.decide(plan.get(id) === 'reject' ? reject(id) : approve(id));
          }
          turn += 1;
          await new Promise((resolve) => setTimeout(resolve, (picks[turn % picks.length] ?? 0) % 2));
        }
        expect(await handle.result).toMatchObject({ status: 'done', response: 'end' });
        for (const [id, kind] of plan) {
          if (kind === 'reject') expect(danger.count(id)).toBe(0);
          if (kind === 'approve') expect(danger.count(id)).toBe(1);
        }
        const states = readToolCallStates(await storedRun(store, 'run'));
        expect(states.every((state) => ['succeeded', 'failed', 'cancelled'].includes(state.status))).toBe(
          true,
        );
        for (const request of model.requests) expect(historyIsValid(request.messages)).toBe(true);
        expect(statusAlwaysDerived(snapshots)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
