import { createTestStore } from '../../../test-support/recording-store';
import { AwakenError, type StopConditionSpec, toolFailure } from '@awaken/contract';
import { type ScriptedTurn, createScriptedModel, echoTool, failingTool, slowTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../../create-agent-runtime';
import { DEFAULT_MAX_ROUNDS } from '../../index';
import { createHarness } from '../../../test-support/harness';

/** A model that always calls echo with a distinct argument (or the given one). */
function loopingModel(
  turn: (index: number) => ScriptedTurn = (index) => ({
    toolCalls: [{ id: `c${index}`, name: 'echo', arguments: { text: `t${index}` } }],
  }),
) {
  return createScriptedModel((_request, index) => turn(index));
}

async function stopsAfter(stopConditions: StopConditionSpec[], turn?: (index: number) => ScriptedTurn) {
  const model = loopingModel(turn);
  const { runtime } = createHarness({ tools: [echoTool, failingTool], stopConditions }, { model });
  const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
  return { result, calls: model.callCount };
}

describe('stop conditions', () => {
  it('max_rounds stops after exactly that many steps', async () => {
    expect((await stopsAfter([{ type: 'max_rounds', rounds: 1 }])).result).toMatchObject({
      steps: 1,
      termination: { type: 'stopped', code: 'max_rounds' },
    });
    const { result, calls } = await stopsAfter([{ type: 'max_rounds', rounds: 3 }]);
    expect(result.steps).toBe(3);
    expect(calls).toBe(3);
  });

  it(`a tool loop without stop conditions stops at the default limit of ${DEFAULT_MAX_ROUNDS} rounds`, async () => {
    const { result, calls } = await stopsAfter([]);
    expect(result).toMatchObject({
      status: 'done',
      steps: DEFAULT_MAX_ROUNDS,
      termination: { type: 'stopped', code: 'max_rounds' },
    });
    expect(calls).toBe(DEFAULT_MAX_ROUNDS);
  });

  it('a declared max_rounds replaces the default limit, also a higher one', async () => {
    const { result } = await stopsAfter([{ type: 'max_rounds', rounds: DEFAULT_MAX_ROUNDS + 4 }]);
    expect(result).toMatchObject({ steps: DEFAULT_MAX_ROUNDS + 4, termination: { code: 'max_rounds' } });
    // other conditions keep the default limit next to them
    const budget = await stopsAfter([{ type: 'token_budget', maxTotal: 1_000_000 }]);
    expect(budget.result).toMatchObject({ steps: DEFAULT_MAX_ROUNDS, termination: { code: 'max_rounds' } });
  });

  it('token_budget stops once cumulative input+output reaches the budget, not before', async () => {
    const turn = (index: number): ScriptedTurn => ({
      toolCalls: [{ id: `c${index}`, name: 'echo', arguments: { text: `t${index}` } }],
      usage: { inputTokens: 10, outputTokens: 5 },
    });
    expect((await stopsAfter([{ type: 'token_budget', maxTotal: 30 }], turn)).result.steps).toBe(2);
    expect((await stopsAfter([{ type: 'token_budget', maxTotal: 31 }], turn)).result.steps).toBe(3);
  });

  it('consecutive_errors counts failed tool results in a row and resets on success', async () => {
    const failing = (index: number): ScriptedTurn => ({
      toolCalls: [{ id: `c${index}`, name: index === 1 ? 'echo' : 'failing', arguments: { text: 'x' } }],
    });
    const atTwo = await stopsAfter([{ type: 'consecutive_errors', max: 2 }], failing);
    expect(atTwo.result).toMatchObject({ steps: 4, termination: { code: 'consecutive_errors' } });
    const atThree = await stopsAfter([{ type: 'consecutive_errors', max: 3 }], failing);
    expect(atThree.result.steps).toBe(5);
  });

  it('stop_on_tool stops after the named tool ran in the step', async () => {
    const turn = (index: number): ScriptedTurn => ({
      toolCalls: [{ id: `c${index}`, name: index < 2 ? 'echo' : 'failing', arguments: { text: 'x' } }],
    });
    const { result } = await stopsAfter([{ type: 'stop_on_tool', toolName: 'failing' }], turn);
    expect(result).toMatchObject({ steps: 3, termination: { type: 'stopped', code: 'stop_on_tool' } });
  });

  it('content_match stops when the assistant text matches', async () => {
    const turn = (index: number): ScriptedTurn => ({
      text: index === 2 ? 'I am DONE now' : 'working',
      toolCalls: [{ id: `c${index}`, name: 'echo', arguments: { text: `t${index}` } }],
    });
    const { result } = await stopsAfter([{ type: 'content_match', pattern: 'done', flags: 'i' }], turn);
    expect(result).toMatchObject({ steps: 3, termination: { code: 'content_match' } });
  });

  it('loop_detection stops when the same call repeats within the window', async () => {
    const same = (index: number): ScriptedTurn => ({
      toolCalls: [{ id: `c${index}`, name: 'echo', arguments: { text: 'same' } }],
    });
    expect((await stopsAfter([{ type: 'loop_detection', window: 2 }], same)).result).toMatchObject({
      steps: 2,
      termination: { code: 'loop_detection' },
    });
    const alternating = (index: number): ScriptedTurn => ({
      toolCalls: [{ id: `c${index}`, name: 'echo', arguments: { text: index % 2 === 0 ? 'a' : 'b' } }],
    });
    expect(
      (
        await stopsAfter(
          [
            { type: 'loop_detection', window: 2 },
            { type: 'max_rounds', rounds: 5 },
          ],
          alternating,
        )
      ).result,
    ).toMatchObject({ steps: 5, termination: { code: 'max_rounds' } });
    expect((await stopsAfter([{ type: 'loop_detection', window: 3 }], alternating)).result).toMatchObject({
      steps: 3,
      termination: { code: 'loop_detection' },
    });
  });

  it('timeout stops at StepEnd once the wall clock passed the limit', async () => {
    let clock = 0;
    const model = loopingModel();
    const { runtime } = createHarness(
      { tools: [echoTool], stopConditions: [{ type: 'timeout', seconds: 60 }] },
      {
        model,
        now: () => {
          clock += 1_000;
          return clock;
        },
      },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.termination).toMatchObject({ type: 'stopped', code: 'timeout' });
    expect(result.steps).toBeGreaterThan(1);
  });

  it('timeout is a hard deadline that aborts a slow model call', async () => {
    const model = createScriptedModel([{ text: 'slow answer', delayMs: 5_000 }]);
    const { runtime } = createHarness({ stopConditions: [{ type: 'timeout', seconds: 0.05 }] }, { model });
    const started = Date.now();
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.termination).toMatchObject({ type: 'stopped', code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  it('timeout aborts a slow tool and cancels its call', async () => {
    const { runtime, store } = createHarness(
      { tools: [slowTool], stopConditions: [{ type: 'timeout', seconds: 0.05 }] },
      { turns: [{ toolCalls: [{ id: 's', name: 'slow', arguments: { ms: 5_000 } }] }] },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result.termination).toMatchObject({ type: 'stopped', code: 'timeout' });
    const tool = (await store.readMessages(result.threadId)).find((record) => record.message.role === 'tool');
    expect(tool?.message).toMatchObject({ outcome: 'cancelled' });
  });

  it('evaluates in declared order: the first matching condition wins', async () => {
    const both: StopConditionSpec[] = [
      { type: 'max_rounds', rounds: 2 },
      { type: 'token_budget', maxTotal: 1 },
    ];
    expect((await stopsAfter(both)).result.termination).toMatchObject({ code: 'token_budget' });
    expect((await stopsAfter([...both].reverse())).result.termination).toMatchObject({
      code: 'token_budget',
      detail: expect.any(String),
    });
    expect(
      (
        await stopsAfter([
          { type: 'max_rounds', rounds: 1 },
          { type: 'token_budget', maxTotal: 1 },
        ])
      ).result.termination,
    ).toMatchObject({ code: 'max_rounds' });
  });

  it('a plugin can stop the run at StepEnd', async () => {
    const model = loopingModel();
    const { runtime } = createHarness(
      {
        tools: [echoTool],
        plugins: [
          {
            id: 'p',
            hooks: {
              stepEnd: (context) => {
                if (context.step >= 2) context.stop('custom', 'enough');
              },
            },
          },
        ],
      },
      { model },
    );
    const result = await runtime.runToCompletion({ agentId: 'agent', input: 'go' });
    expect(result).toMatchObject({
      steps: 2,
      termination: { type: 'stopped', code: 'custom', detail: 'enough' },
    });
  });

  it('rejects invalid agent definitions when the runtime is created', () => {
    const store = createTestStore();
    const model = createScriptedModel();
    const create = (agent: object) => () =>
      createAgentRuntime({ agents: [{ id: 'a', ...agent }], stores: { threadRuns: store }, model });
    const invalid = (agent: object, text: string) => {
      const error = (() => {
        try {
          create(agent)();
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(AwakenError.hasCode(error, 'invalid_config')).toBe(true);
      expect((error as Error).message).toContain(text);
    };
    invalid({ stopConditions: [{ type: 'content_match', pattern: '(' }] }, 'stopConditions[0]');
    invalid({ stopConditions: [{ type: 'max_rounds', round: 3 }] }, 'stopConditions[0]');
    invalid({ tools: [echoTool, echoTool] }, 'declares tool "echo" twice');
    expect(() =>
      createAgentRuntime({ agents: [{ id: 'a' }, { id: 'a' }], stores: { threadRuns: store }, model }),
    ).toThrow(/defined twice/);
    expect(() => createAgentRuntime({ agents: [{ id: 'a' }], stores: { threadRuns: store } })).toThrow(
      /no model/,
    );
    const runtime = createAgentRuntime({ agents: [{ id: 'a' }], stores: { threadRuns: store }, model });
    expect(() => runtime.run({ agentId: 'ghost' })).toThrow(/unknown agent "ghost"/);
    expect(toolFailure('x').status).toBe('error');
  });
});
