import { AwakenError, type Message, type Plugin, type Tool, defineTool } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';
import { type ScriptedTurn, abortableSleep, createScriptedModel } from '@awaken/testing';
import { z } from 'zod';
import type { Counters } from './counters';

/**
 * The agent every service test runs, in the test process and in worker processes alike. Its
 * script is the run's input: turns separated by `then`, each turn's words separated by spaces:
 * - `approve:N` — N calls of `approve_me`, each suspended until a decision;
 * - `expire:MS` — one call of `approve_me` whose ticket expires MS ms after it is raised;
 * - `plain` — one call of `plain`; `slow:MS` — one call of `slow`, which sleeps MS ms on its first
 *   execution only; `crash` — one call of `crash`, which kills its own process (SIGKILL); `client` —
 *   one call of the client tool `pick_color` (declared by the run request); `payonce` — one call of
 *   `pay_once`, a tool that must never run twice (`idempotent: false`) and kills its own process;
 * - `transient:K[:AFTER]` — this turn's model call fails with a retryable error (retry after AFTER
 *   ms) K times; `permanent` — it fails with a permanent error;
 * - anything else (e.g. `#id`, which makes the input unique) is ignored.
 * A turn without tool words is the final answer, `done after N results`. Counters:
 * `exec:<run>:<call>` / `done:<run>:<call>` per tool body, `model:<input>` per model call,
 * `slow-started:<run>`.
 */
export const AGENT_ID = 'ops';

interface Script {
  input: string;
  turns: string[][];
  /** Index of the turn the model is asked for: assistant messages since the user message. */
  turn: number;
  results: number;
}

function scriptOf(messages: readonly Message[]): Script {
  let userAt = messages.length - 1;
  while (userAt >= 0 && messages[userAt]?.role !== 'user') userAt -= 1;
  const user = messages[userAt];
  const input = user?.role === 'user' ? user.content : '';
  const after = messages.slice(userAt + 1);
  return {
    input,
    turns: input.split(/\s+then\s+/).map((turn: string) => turn.split(/\s+/)),
    turn: after.filter((message) => message.role === 'assistant').length,
    results: after.filter((message) => message.role === 'tool').length,
  };
}

function turnFor(script: Script): ScriptedTurn {
  const toolCalls: NonNullable<ScriptedTurn['toolCalls']> = [];
  const call = (name: string, index: number, extra: Record<string, unknown> = {}) =>
    toolCalls.push({ id: `${name}_${script.turn}_${index}`, name, arguments: { index, ...extra } });
  for (const word of script.turns[script.turn] ?? []) {
    const [kind, value] = word.split(':');
    if (kind === 'approve') for (let index = 0; index < Number(value); index += 1) call('approve_me', index);
    else if (kind === 'expire') call('approve_me', 0, { ms: Number(value) });
    else if (kind === 'plain') call('plain', 0);
    else if (kind === 'slow') call('slow', 0, { ms: Number(value) });
    else if (kind === 'crash') call('crash', 0);
    else if (kind === 'payonce') call('pay_once', 0);
    else if (kind === 'client') call('pick_color', 0);
  }
  return toolCalls.length > 0
    ? { text: `turn ${script.turn}`, toolCalls }
    : { text: `done after ${script.results} results` };
}

async function failure(counters: Counters, script: Script): Promise<Error | undefined> {
  for (const word of script.turns[script.turn] ?? []) {
    const [kind, times, after] = word.split(':');
    if (kind === 'permanent') return new AwakenError('model_permanent', 'the model refuses this input');
    if (kind !== 'transient') continue;
    if ((await counters.incr(`transient:${script.input}:${script.turn}`)) <= Number(times)) {
      return new AwakenError('model_transient', 'the model is overloaded', {
        retryable: true,
        ...(after === undefined ? {} : { retryAfterMs: Number(after) }),
      });
    }
  }
  return undefined;
}

function scriptModel(counters: Counters) {
  const scripted = createScriptedModel((request) => turnFor(scriptOf(request.messages)));
  return {
    modelId: 'service-scenario',
    async *stream(request: Parameters<typeof scripted.stream>[0]) {
      const script = scriptOf(request.messages);
      await counters.incr(`model:${script.input}`);
      const error = await failure(counters, script);
      if (error) throw error;
      yield* scripted.stream(request);
    },
  };
}

function countedTool(
  counters: Counters,
  name: string,
  body?: (ms: number, signal: AbortSignal, runId: string) => Promise<void>,
): Tool {
  return defineTool({
    name,
    description: `${name} tool`,
    parameters: z.object({ index: z.number(), ms: z.number().optional() }),
    async execute(args, context) {
      await counters.incr(`exec:${context.runId}:${context.toolCallId}`);
      await body?.(args.ms ?? 0, context.signal, context.runId);
      await counters.incr(`done:${context.runId}:${context.toolCallId}`);
      return { tool: name, index: args.index, approval: context.resume?.result ?? null };
    },
  });
}

const approval: Plugin = {
  id: 'approval',
  hooks: {
    toolGate(context) {
      if (context.call.name !== 'approve_me' || context.resume) return undefined;
      const { ms } = context.call.arguments as { ms?: number };
      return {
        type: 'suspend',
        ...(ms === undefined ? {} : { approvalTimeout: ms }),
        suspension: {
          id: `ticket_${context.call.id}`,
          action: 'approve',
          message: `run approve_me ${JSON.stringify(context.call.arguments)}?`,
          parameters: context.call.arguments,
        },
      };
    },
  },
};

export function scenarioAgent(counters: Counters): AgentDefinition {
  return {
    id: AGENT_ID,
    model: scriptModel(counters),
    toolExecution: 'parallel',
    plugins: [approval],
    tools: [
      countedTool(counters, 'approve_me'),
      countedTool(counters, 'plain'),
      countedTool(counters, 'slow', async (ms, signal, runId) => {
        if ((await counters.incr(`slow-started:${runId}`)) === 1) await abortableSleep(ms, signal);
      }),
      countedTool(counters, 'crash', async () => {
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => {});
      }),
      {
        ...countedTool(counters, 'pay_once', async () => {
          process.kill(process.pid, 'SIGKILL');
          await new Promise(() => {});
        }),
        idempotent: false,
      },
    ],
  };
}
