import { AwakenError, type AgentEvent, type Plugin, defineTool } from '@awaken/contract';
import { type ScriptedTurn, abortableSleep, createScriptedModel } from '@awaken/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalPlugin, recordingTool } from '../../../test-support/approval';
import { activations, framingViolations } from '../../../test-support/framing';
import { approve, collect, createHarness, outline, reject } from '../../../test-support/harness';

type ToolName = 'safe' | 'danger' | 'fails' | 'slow' | 'blocked';

const turnArbitrary = fc.record({
  reasoning: fc.option(fc.string({ minLength: 1, maxLength: 6 }), { nil: undefined }),
  text: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: undefined }),
  tools: fc.array(fc.constantFrom<ToolName>('safe', 'danger', 'fails', 'slow', 'blocked'), { maxLength: 3 }),
  error: fc.integer({ min: 0, max: 9 }).map((roll) => roll < 2),
});

const blockPlugin: Plugin = {
  id: 'block',
  hooks: {
    toolGate: (context) =>
      context.call.name === 'blocked' ? { type: 'block', reason: 'not allowed' } : undefined,
  },
};

function toolsFor() {
  const fails = defineTool({
    name: 'fails',
    description: 'always throws',
    parameters: z.object({}).passthrough(),
    execute: () => {
      throw new Error('broken');
    },
  });
  const slow = defineTool({
    name: 'slow',
    description: 'waits a moment, abortably',
    parameters: z.object({}).passthrough(),
    execute: async (_args, context) => {
      await abortableSleep(1, context.signal);
      return 'slept';
    },
  });
  return [
    recordingTool('safe').tool,
    recordingTool('danger').tool,
    recordingTool('blocked').tool,
    fails,
    slow,
  ];
}

/** Reads one activation's events, cancelling the run when the `cancelAt`-th event arrives. */
async function readActivation(
  handle: AsyncIterable<AgentEvent> & { cancel(reason?: string): void },
  cancelAt?: number,
) {
  const events: AgentEvent[] = [];
  for await (const event of handle) {
    events.push(event);
    if (events.length === cancelAt) handle.cancel('user pressed stop');
  }
  return events;
}

function expectWellFramed(events: readonly AgentEvent[]) {
  for (const activation of activations(events)) {
    expect(framingViolations(activation), activation.map((event) => event.type).join(' ')).toEqual([]);
  }
}

describe('event framing', () => {
  it('brackets every step, text, reasoning and inference on every exit path (random scripts and cancels)', async () => {
    const scenario = fc.record({
      turns: fc.array(turnArbitrary, { minLength: 1, maxLength: 4 }),
      parallel: fc.boolean(),
      maxRounds: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      cancelAt: fc.array(fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }), {
        minLength: 4,
        maxLength: 4,
      }),
      approvals: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    });
    await fc.assert(
      fc.asyncProperty(scenario, async ({ turns, parallel, maxRounds, cancelAt, approvals }) => {
        const script: ScriptedTurn[] = turns.map((turn) =>
          turn.error
            ? { error: new AwakenError('model_permanent', 'model broke') }
            : {
                ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
                ...(turn.text ? { text: turn.text } : {}),
                toolCalls: turn.tools.map((name) => ({ name, arguments: {} })),
                chunkSize: 2,
              },
        );
        const { runtime } = createHarness(
          {
            tools: toolsFor(),
            plugins: [approvalPlugin(['danger']), blockPlugin],
            toolExecution: parallel ? 'parallel' : 'sequential',
            ...(maxRounds ? { stopConditions: [{ type: 'max_rounds', rounds: maxRounds }] } : {}),
          },
          { model: createScriptedModel(script) },
        );
        let handle = runtime.run({ agentId: 'agent', runId: 'run', input: 'go' });
        const all = await readActivation(handle, cancelAt[0]);
        let result = await handle.result;
        for (let round = 1; result.status === 'waiting' && round < 4; round += 1) {
          const decisions = result.waiting!.tickets.map((ticket, index) =>
            approvals[(round + index) % approvals.length]
              ? approve(ticket.toolCallId, { approved: true }, `d${round}_${index}`)
              : reject(ticket.toolCallId, 'no', `d${round}_${index}`),
          );
          handle = runtime.resumeRun('run', { decisions });
          all.push(...(await readActivation(handle, cancelAt[round])));
          result = await handle.result;
        }
        expectWellFramed(all);
      }),
      { numRuns: 150 },
    );
  });

  it('a cancel mid-stream closes the text, reports the cut inference and closes the step', async () => {
    const { runtime } = createHarness(
      {},
      { turns: [{ text: 'a long streamed answer', chunkSize: 2, delayMs: 1 }] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'go' });
    const events = await readActivation(handle, 5);
    // the cancel lands while the model streams: how many deltas got out first is up to the scheduler
    expect(events.filter((event) => event.type === 'text_delta').length).toBeLessThan(11);
    expect(outline(events)).toEqual([
      'run_start',
      'step_start',
      'text_start',
      'text_end',
      'inference_complete',
      'step_end',
      'run_finish',
    ]);
    expect(events.find((event) => event.type === 'inference_complete')).toMatchObject({
      finishReason: 'aborted',
      usage: { inputTokens: 0, outputTokens: 0 },
    });
  });

  it('a model error, a block and a suspension each close the step before run_finish', async () => {
    const failing = createHarness(
      {},
      { turns: [{ text: 'hal', error: new AwakenError('model_permanent', 'down') }] },
    );
    expectWellFramed(await collect(failing.runtime.run({ agentId: 'agent', input: 'go' })));

    const blocked = createHarness(
      { tools: toolsFor(), plugins: [blockPlugin] },
      { turns: [{ toolCalls: [{ name: 'blocked', arguments: {} }] }] },
    );
    const blockedEvents = await collect(blocked.runtime.run({ agentId: 'agent', input: 'go' }));
    expect(blockedEvents.at(-1)).toMatchObject({ termination: { type: 'blocked' } });
    expectWellFramed(blockedEvents);

    const waiting = createHarness(
      { tools: toolsFor(), plugins: [approvalPlugin(['danger'])] },
      { turns: [{ toolCalls: [{ id: 'd', name: 'danger', arguments: {} }] }, { text: 'ok' }] },
    );
    const first = await collect(waiting.runtime.run({ agentId: 'agent', runId: 'w', input: 'go' }));
    expect(first.map((event) => event.type).slice(-3)).toEqual([
      'tool_call_suspended',
      'step_end',
      'run_finish',
    ]);
    const resumed = await collect(waiting.runtime.resumeRun('w', { decisions: [approve('d')] }));
    // the resumed activation reopens the step the call belongs to, then runs the next one
    expect(resumed.filter((event) => event.type === 'step_start').map((event) => event.step)).toEqual([1, 2]);
    expectWellFramed([...first, ...resumed]);
  });
});
