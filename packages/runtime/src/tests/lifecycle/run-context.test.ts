import { AwakenError, type Plugin, type RunContext, answer, defineTool } from '@awaken/contract';
import { createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approvalPlugin } from '../../../test-support/approval';
import { createHarness, storedRun } from '../../../test-support/harness';
import { readToolCallStates } from '@awaken/contract';

const caller: RunContext = { user: 'ada', tenant: 'acme', request: { ip: '10.0.0.1' } };

describe('RunRequest.context', () => {
  it('is visible in every hook and tool, stored on the run record, and survives a cold resume', async () => {
    const seen: Array<[string, unknown]> = [];
    const observer: Plugin = {
      id: 'observer',
      hooks: {
        runStart: (context) => void seen.push(['RunStart', context.runContext]),
        stepStart: (context) => void seen.push(['StepStart', context.runContext]),
        beforeInference: (context) => void seen.push(['BeforeInference', context.runContext]),
        afterInference: (context) => void seen.push(['AfterInference', context.runContext]),
        toolGate: (context) => void seen.push(['ToolGate', context.runContext]),
        beforeToolExecute: (context) => void seen.push(['BeforeToolExecute', context.runContext]),
        afterToolExecute: (context) => void seen.push(['AfterToolExecute', context.runContext]),
        stepEnd: (context) => void seen.push(['StepEnd', context.runContext]),
        runEnd: (context) => void seen.push(['RunEnd', context.runContext]),
      },
    };
    const audit = defineTool({
      name: 'audit',
      description: 'records who asked',
      parameters: z.object({}),
      execute: (_args, context) => ({ by: context.runContext.user }),
    });
    const model = createScriptedModel([
      { toolCalls: [{ id: 'a', name: 'audit', arguments: {} }] },
      { text: 'ok' },
    ]);
    const { runtime, store } = createHarness(
      { tools: [audit], plugins: [observer, approvalPlugin(['audit'])] },
      { model },
    );
    const first = await runtime.runToCompletion({
      agentId: 'agent',
      runId: 'r',
      input: 'go',
      context: caller,
    });
    expect((await storedRun(store, 'r')).context).toEqual(caller);
    const cold = createHarness(
      { tools: [audit], plugins: [observer, approvalPlugin(['audit'])] },
      { model, store },
    );
    const decision = answer(first.waiting!.tickets[0]!, { approved: true }, { context: { user: 'grace' } });
    const done = await cold.runtime.resumeRun('r', { decisions: [decision] }).result;
    expect(done.status).toBe('done');
    expect(new Set(seen.map(([phase]) => phase))).toEqual(
      new Set([
        'RunStart',
        'StepStart',
        'BeforeInference',
        'AfterInference',
        'ToolGate',
        'BeforeToolExecute',
        'AfterToolExecute',
        'StepEnd',
        'RunEnd',
      ]),
    );
    expect(seen.every(([, context]) => JSON.stringify(context) === JSON.stringify(caller))).toBe(true);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ content: { by: 'ada' } });
    // the decision keeps who decided
    const [state] = readToolCallStates(await storedRun(store, 'r'));
    expect(state?.resume?.context).toEqual({ user: 'grace' });
  });

  it('refuses a context that is not a JSON object', () => {
    const { runtime } = createHarness({}, { turns: [] });
    for (const context of [{ when: new Date() }, { call: () => 1 }, ['not', 'an', 'object']]) {
      let caught: unknown;
      try {
        runtime.run({ agentId: 'agent', input: 'go', context: context as never });
      } catch (error) {
        caught = error;
      }
      expect(AwakenError.hasCode(caught, 'validation_failed')).toBe(true);
      expect((caught as Error).message).toContain('context');
    }
  });
});
