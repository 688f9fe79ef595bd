import {
  type InferenceRequest,
  type InferenceStreamPart,
  type Message,
  type ModelExecutor,
  approve,
  defineTool,
} from '@awaken/contract';
import { createPermissionPlugin } from '@awaken/ext-permission';
import { type AgentDefinition, type AgentRuntime, agentTool } from '@awaken/runtime';
import { z } from 'zod';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

function lastMessage(messages: readonly Message[]): Message | undefined {
  return messages[messages.length - 1];
}

/**
 * One scripted model for every agent of the benchmark, answering from the last message: a user
 * message `delegate: <task>` → a call of `janitor({task})`; any other user message `delete <path>` →
 * a call of `delete_file({path})`; a tool result → a one-line answer. So the sub-agent run is the
 * one-agent run's two turns (in the child) plus the parent's own two (delegate, then answer).
 */
export const benchModel: ModelExecutor = {
  modelId: 'bench:sub-agents',
  async *stream(request: InferenceRequest): AsyncIterable<InferenceStreamPart> {
    const last = lastMessage(request.messages);
    if (last?.role === 'tool') {
      yield { type: 'text_delta', delta: `${last.toolName}: ${JSON.stringify(last.content)}` };
      yield { type: 'finish', finishReason: 'stop', usage };
      return;
    }
    const text = last?.role === 'user' ? last.content : '';
    const delegate = /^delegate: (.+)$/.exec(text);
    const [name, input] = delegate
      ? ['janitor', { task: delegate[1] }]
      : ['delete_file', { path: /\/\S+/.exec(text)?.[0] ?? '/tmp/x' }];
    const toolCallId = `call_${name}`;
    yield { type: 'tool_call', toolCallId, toolName: name, input: JSON.stringify(input) };
    yield { type: 'finish', finishReason: 'tool-calls', usage };
  },
};

/** The work: deleting a file (it only counts). */
export function deleteFileTool(counter: { deleted: number }) {
  return defineTool({
    name: 'delete_file',
    description: 'Deletes a file',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      counter.deleted += 1;
      return { deleted: path };
    },
  });
}

/**
 * `solo` does the work itself; `boss` delegates it to `janitor` (a sub-agent, `agentTool`). With
 * `ask`, `delete_file` needs an approval: `solo`'s own rule, and `boss`'s rule inherited by the
 * janitor (the question reaches `boss`'s run as a nested ticket).
 */
export function benchAgents(options: { ask: boolean; counter: { deleted: number } }): AgentDefinition[] {
  const rules = () =>
    options.ask
      ? [
          createPermissionPlugin({
            defaultBehavior: 'allow',
            rules: [{ tool: 'delete_file', behavior: 'ask' }],
          }),
        ]
      : [];
  const deleteFile = deleteFileTool(options.counter);
  return [
    { id: 'solo', tools: [deleteFile], plugins: rules() },
    { id: 'boss', tools: [agentTool('janitor')], plugins: rules() },
    { id: 'janitor', tools: [deleteFile] },
  ];
}

/** One run of `agentId` to its end: with `ask`, it waits once and is approved once. */
export async function runOnce(runtime: AgentRuntime, agentId: 'solo' | 'boss', ask: boolean): Promise<void> {
  const input = agentId === 'boss' ? 'delegate: delete /tmp/x.txt' : 'delete /tmp/x.txt';
  let result = await runtime.runToCompletion({ agentId, input });
  if (ask) {
    const ticket = result.waiting?.tickets[0];
    if (result.status !== 'waiting' || !ticket) throw new Error(`${agentId}: expected a question`);
    result = await runtime.resumeRun(result.runId, { decisions: [approve(ticket)] }).result;
  }
  if (result.status !== 'done' || result.termination.type !== 'natural_end')
    throw new Error(`${agentId}: the run ended ${JSON.stringify(result.termination)}`);
}
