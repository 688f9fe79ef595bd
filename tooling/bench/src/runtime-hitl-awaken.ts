import { type ModelExecutor, type Plugin, type ThreadRunStore, defineTool } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { z } from 'zod';

/**
 * The Awaken side of the HITL benchmark: agent `a` with one tool `danger` behind a ToolGate approval
 * plugin, and a native in-memory model answering the same script as the ai@6 side's mock: a call to
 * `danger` when the last message is the user's, the text `ok` otherwise.
 */
export interface AwakenHitl {
  runtimeOn(store: ThreadRunStore): ReturnType<typeof createAgentRuntime>;
  /** Builds a thread holding `prior` + the user's `go` + the assistant's call, with the run waiting. */
  waitingRunWithHistory(
    store: ThreadRunStore,
    prior: Array<{ role: 'user' | 'assistant'; text: string }>,
  ): Promise<{ runId: string; toolCallId: string }>;
}

const USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/** An approval of `toolCallId`, replaying the call with its original arguments. */
export const approve = (toolCallId: string, decisionId: string) => ({
  toolCallId,
  decisionId,
  action: 'resume' as const,
  result: true,
  updatedAt: Date.now(),
});

/** `onToolStart` is called first thing in the approved tool's body. */
export function createAwakenHitl(onToolStart: () => void): AwakenHitl {
  const danger = defineTool({
    name: 'danger',
    description: 'needs approval',
    parameters: z.object({}).passthrough(),
    execute: () => {
      onToolStart();
      return { ok: true };
    },
  });
  const approval: Plugin = {
    id: 'approval',
    hooks: {
      toolGate: (context) =>
        context.resume
          ? undefined
          : {
              type: 'suspend',
              suspension: { id: `t_${context.call.id}`, action: 'approve', message: '?', parameters: {} },
            },
    },
  };
  const model: ModelExecutor = {
    modelId: 'bench',
    async *stream(request) {
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        const id = `call_${request.messages.length}`;
        yield { type: 'tool_call_start', toolCallId: id, toolName: 'danger' };
        yield { type: 'tool_call', toolCallId: id, toolName: 'danger', input: '{}' };
        yield { type: 'finish', finishReason: 'tool-calls', usage: USAGE };
      } else {
        yield { type: 'text_delta', delta: 'ok' };
        yield { type: 'finish', finishReason: 'stop', usage: USAGE };
      }
    },
  };
  const runtimeOn = (store: ThreadRunStore) =>
    createAgentRuntime({
      agents: [{ id: 'a', tools: [danger], plugins: [approval] }],
      stores: { threadRuns: store },
      model,
    });
  return {
    runtimeOn,
    async waitingRunWithHistory(store, prior) {
      const thread = await store.createThread({ id: `t${prior.length}_${Math.random()}` });
      const messages = prior.map(({ role, text }) => ({
        visibility: 'external' as const,
        message: role === 'user' ? { role, content: text } : { role, text, toolCalls: [] },
      }));
      await store.appendMessages(thread.id, { expectedLength: 0, messages });
      const result = await runtimeOn(store).runToCompletion({
        agentId: 'a',
        threadId: thread.id,
        input: 'go',
      });
      const toolCallId = result.waiting?.tickets[0]?.toolCallId;
      if (!toolCallId || (await store.messageCount(thread.id)) !== prior.length + 2)
        throw new Error('setup failed');
      return { runId: result.runId, toolCallId };
    },
  };
}
