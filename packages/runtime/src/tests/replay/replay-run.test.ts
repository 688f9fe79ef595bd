import { type ModelExecutor, defineTool, parseRunRecording } from '@awaken/contract';
import { createMemoryStores } from '@awaken/store-memory';
import { createScriptedModel, pendingTool, replayRun } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentDefinition, createAgentRuntime, exportRunRecording } from '../../index';

function weatherTool(celsius: number, calls: string[]) {
  return defineTool({
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => {
      calls.push(city);
      return { city, celsius };
    },
  });
}

function agentWith(model: ModelExecutor, celsius = 21, calls: string[] = []): AgentDefinition {
  return {
    id: 'assistant',
    systemPrompt: 'You help.',
    model,
    tools: [weatherTool(celsius, calls), pendingTool],
  };
}

const forbidden: ModelExecutor = {
  modelId: 'forbidden',
  // biome-ignore lint/correctness/useYield: it throws before any part
  async *stream() {
    throw new Error('a replay called the model');
  },
};

/** Records a 3-step run with a tool call and a question a human answers (two activations). */
async function record(): Promise<string> {
  const stores = createMemoryStores();
  const model = createScriptedModel([
    { text: 'Checking. ', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
    { toolCalls: [{ id: 'c2', name: 'ask_human', arguments: { question: 'umbrella?' } }] },
    { text: 'It is 21 °C in Paris and you said yes.', usage: { inputTokens: 30, outputTokens: 9 } },
  ]);
  const runtime = createAgentRuntime({ agents: [agentWith(model)], stores });
  const first = await runtime.runToCompletion({ agentId: 'assistant', input: 'weather in Paris?' });
  expect(first.status).toBe('waiting');
  const decision = {
    toolCallId: 'c2',
    decisionId: 'd1',
    action: 'resume' as const,
    result: 'yes',
    updatedAt: 1,
  };
  const done = await runtime.resumeRun(first.runId, { decisions: [decision] }).result;
  expect(done.status).toBe('done');
  let text = '';
  for await (const line of await exportRunRecording(stores, first.runId, { pageSize: 4 })) text += line;
  return text;
}

const options = { createRuntime: createAgentRuntime, createStores: createMemoryStores };

describe('replayRun', () => {
  it('replays a recorded run with a human answer: same events, no model call, no real tool execution', async () => {
    const text = await record();
    const recording = parseRunRecording(text);
    expect(recording.events.filter((event) => event.type === 'run_start')).toHaveLength(2);
    const calls: string[] = [];
    const report = await replayRun(text, agentWith(forbidden, 21, calls), options);
    expect(report.divergence?.diff).toBeUndefined();
    expect(report).toMatchObject({
      ok: true,
      modelCalls: 3,
      activations: 2,
      recordedEvents: recording.events.length,
    });
    expect(report.recordedToolExecutions).toBe(3); // get_weather, ask_human's question and its replay
    expect(calls).toEqual([]);
  });

  it('reports the first divergence when a tool result in the recording was changed', async () => {
    const text = await record();
    const changed = text.replace('"celsius":21', '"celsius":35');
    expect(changed).not.toBe(text);
    const recording = parseRunRecording(changed);
    const doneIndex = recording.events.findIndex((event) => event.type === 'tool_call_done');
    // live tools: the tool really runs (21 °C) where the recording says 35
    const calls: string[] = [];
    const report = await replayRun(changed, agentWith(forbidden, 21, calls), { ...options, tools: 'live' });
    expect(report.ok).toBe(false);
    expect(calls).toEqual(['Paris']);
    expect(report.divergence?.index).toBe(doneIndex);
    expect(report.divergence?.recorded).toMatchObject({ type: 'tool_call_done', toolCallId: 'c1' });
    expect(report.divergence?.replayed).toMatchObject({
      type: 'tool_call_done',
      result: { output: { celsius: 21 } },
    });
    expect(report.divergence?.diff).toContain('result.output.celsius: 35 → 21');
  });

  it('reports a changed tool through live tools, and matches when the tool still answers the same', async () => {
    const text = await record();
    const same = await replayRun(text, agentWith(forbidden, 21), { ...options, tools: 'live' });
    expect(same.ok).toBe(true);
    const hotter = await replayRun(text, agentWith(forbidden, 30), { ...options, tools: 'live' });
    expect(hotter.ok).toBe(false);
    expect(hotter.divergence?.diff).toContain('celsius: 21 → 30');
  });

  it('refuses bad input with a clear error naming the problem', async () => {
    const text = await record();
    const lines = text.trimEnd().split('\n');
    const agent = agentWith(forbidden);
    await expect(replayRun('not json at all', agent, options)).rejects.toThrow(/line 1 is not JSON/);
    await expect(replayRun('', agent, options)).rejects.toThrow(/it is empty/);
    await expect(replayRun(text.replace('"version":1', '"version":2'), agent, options)).rejects.toThrow(
      /version 2 is not supported \(this library reads version 1\)/,
    );
    await expect(replayRun('{"type":"run_start"}', agent, options)).rejects.toThrow(
      /line 1 is not a recording header/,
    );
    // cut at a line boundary: the end line is missing
    await expect(replayRun(lines.slice(0, 6).join('\n'), agent, options)).rejects.toThrow(
      /truncated: no end line after 5 events/,
    );
    // cut inside a line
    await expect(replayRun(text.slice(0, text.length - 30), agent, options)).rejects.toThrow(
      /line \d+ is not JSON/,
    );
    // a line dropped in the middle
    await expect(
      replayRun([...lines.slice(0, 3), ...lines.slice(4)].join('\n'), agent, options),
    ).rejects.toThrow(/line 4 has seq 4, expected 3/);
    await expect(replayRun(text, agent, options)).resolves.toMatchObject({ ok: true });
  });

  it('exportRunRecording rejects an unknown run with not_found before any line', async () => {
    const stores = createMemoryStores();
    await expect(exportRunRecording(stores, 'nope')).rejects.toMatchObject({ code: 'not_found' });
  });
});
