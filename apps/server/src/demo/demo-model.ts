import {
  AwakenError,
  type InferenceRequest,
  type InferenceStreamPart,
  type Message,
  type ModelExecutor,
  type ToolMessage,
} from '@awaken/contract';
import { DEMO_SUB_AGENTS } from './demo-sub-agents';

/** What the demo model does for each prompt (documented in the README). */
export const DEMO_PROMPTS = [
  { prompt: 'weather in Paris', what: 'calls get_weather (allowed without asking) and reports it' },
  {
    prompt: 'delete /tmp/report.txt',
    what: 'calls delete_file, which waits for approval; reacts to approve, deny and edits',
  },
  {
    prompt: 'delete /tmp/a.txt and /tmp/b.txt',
    what: 'two parallel delete_file calls, each waiting for its own approval (answer them one at a time)',
  },
  {
    prompt: 'restart nginx',
    what: 'calls restart_service, whose approval expires after 20 s; unanswered, the agent says so',
  },
  {
    prompt: 'send invoice 42',
    what: 'calls send_invoice, a tool that must never run twice (kill the server while it runs to see)',
  },
  {
    prompt: 'ask the janitor to delete /tmp/report.txt',
    what: 'delegates to the janitor sub-agent, whose delete_file asks you (the inherited rule): approve → "The janitor deleted /tmp/report.txt.", deny → "The janitor did not delete …"',
  },
  {
    prompt: 'ask the janitor to delete /tmp/a.txt and the archivist to delete /tmp/b.txt',
    what: 'two sub-agents in parallel, each question answered on its own, in any order',
  },
  { prompt: 'pick a color', what: 'calls the client tool choose_color; the client answers with the color' },
  {
    prompt: 'transfer me to billing',
    what: 'calls transfer_to_billing: the run continues with the billing agent, which answers',
  },
  {
    prompt: 'use the confirm tool with {"question":"ok?"}',
    what: 'calls a frontend tool the client declared in the request (AG-UI tools, useChat client tools) with those arguments',
  },
  { prompt: 'count to 20', what: 'streams the numbers slowly (a long run to watch, cancel or reconnect to)' },
  {
    prompt: 'fail permanently',
    what: 'the model call fails with a permanent error: the run ends with an error and its dispatch is dead-lettered',
  },
] as const;

const usage = { inputTokens: 12, outputTokens: 8, totalTokens: 20 };

function lastUserText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'user') return message.content;
  }
  return '';
}

type Plan =
  | { kind: 'text'; text: string; chunk?: number; delayMs?: number }
  | {
      kind: 'call';
      name: string;
      args: Record<string, unknown>;
      text?: string;
      /** More calls in the same turn (parallel): of the same tool unless `name` says otherwise. */
      more?: Array<{ name?: string; args: Record<string, unknown> }>;
    };

function describe(content: unknown): string {
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** A refusal's reason (a cancelled call's `{ cancelled, reason }`), else the content as text. */
function reasonOf(content: unknown): string {
  const reason = (content as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : describe(content);
}

/** The arguments the assistant gave the call `toolCallId` (in the history before its result). */
function callArguments(messages: readonly Message[], toolCallId: string): Record<string, unknown> {
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const call = message.toolCalls.find((entry) => entry.id === toolCallId);
    if (call) return (call.arguments ?? {}) as Record<string, unknown>;
  }
  return {};
}

/**
 * A sub-agent's answer, as the demo agent reports it: its final text is the call's output, "Done: I
 * deleted <path>." when it deleted a file (the path it deleted), anything else when it did not (a
 * denial, a failure) — then the path of the task it was given.
 */
function afterSubAgent(result: ToolMessage, messages: readonly Message[]): Plan {
  const task = callArguments(messages, result.toolCallId).task;
  const path = (typeof task === 'string' ? /\/\S+/.exec(task)?.[0] : undefined) ?? 'the file';
  const said = describe(result.content ?? '');
  // the path it really deleted (a human may have edited the inner call's arguments)
  const deleted = /^Done: I deleted (\S+)\.$/.exec(said)?.[1];
  if (result.outcome === 'succeeded' && deleted)
    return { kind: 'text', text: `The ${result.toolName} deleted ${deleted}.` };
  return { kind: 'text', text: `The ${result.toolName} did not delete ${path}: "${said}"` };
}

/** The answer after a tool result: success, denial (cancelled), or failure. */
function afterTool(result: ToolMessage, messages: readonly Message[]): Plan {
  if ((DEMO_SUB_AGENTS as readonly string[]).includes(result.toolName))
    return afterSubAgent(result, messages);
  const raw = result.content as Record<string, unknown> | string | undefined;
  // a call a human approved with edited arguments: the result is inside, the edit beside it
  const edited = typeof raw === 'object' && raw !== null && 'argumentsEditedByHuman' in raw;
  const content = (edited ? raw.result : raw) as Record<string, unknown> | string | undefined;
  const field = (key: string) => (typeof content === 'object' && content ? content[key] : undefined);
  if (result.outcome === 'expired') {
    return { kind: 'text', text: `Nobody approved ${result.toolName} in time, so I did not run it.` };
  }
  if (result.outcome === 'cancelled' || result.outcome === 'failed') {
    return {
      kind: 'text',
      text: `I did not run ${result.toolName}: ${reasonOf(content ?? 'no reason given')}.`,
    };
  }
  if (result.toolName.startsWith('transfer_to_')) {
    return {
      kind: 'text',
      text: `This is ${field('transferredTo')}: you were transferred to me. How can I help?`,
    };
  }
  switch (result.toolName) {
    case 'get_weather':
      return {
        kind: 'text',
        text: `It is ${field('forecast')} in ${field('city')}, ${field('celsius')} °C.`,
      };
    case 'delete_file':
      return { kind: 'text', text: `Done: I deleted ${field('deleted')}.` };
    case 'restart_service':
      return { kind: 'text', text: `Done: I restarted ${field('restarted')}.` };
    case 'send_invoice':
      return { kind: 'text', text: `Done: invoice ${field('sent')} is sent.` };
    case 'ask_remote':
      return { kind: 'text', text: `The remote agent says: ${field('text')}` };
    case 'choose_color':
      return { kind: 'text', text: `You chose ${describe(field('color') ?? content)}. Nice choice!` };
    default:
      return { kind: 'text', text: `${result.toolName} answered ${describe(content)}.` };
  }
}

/** The tool results of the last assistant turn (several when it made parallel calls). */
function trailingResults(messages: readonly Message[]): ToolMessage[] {
  const results: ToolMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'tool') break;
    results.unshift(message);
  }
  return results;
}

/** A call to a tool the request declared (a frontend tool): `use the <name> tool [with <json>]`. */
function frontendCall(text: string, declared: ReadonlySet<string>): Plan | undefined {
  const use = /\buse (?:the )?([\w-]{1,64}) tool(?: with (\{.{0,2000}\}))?/i.exec(text);
  if (!use?.[1] || !declared.has(use[1])) return undefined;
  let args: Record<string, unknown> = {};
  try {
    args = use[2] ? (JSON.parse(use[2]) as Record<string, unknown>) : {};
  } catch {
    // not JSON: no arguments
  }
  return { kind: 'call', name: use[1], args };
}

function plan(messages: readonly Message[], delayMs: number, declared: ReadonlySet<string>): Plan {
  const results = trailingResults(messages);
  if (results.length === 1) return afterTool(results[0] as ToolMessage, messages);
  if (results.length > 1) {
    const texts = results.map((result) => afterTool(result, messages)).map((next) => next.text ?? '');
    return { kind: 'text', text: texts.join(' ') };
  }
  const text = lastUserText(messages).trim();
  const frontend = frontendCall(text, declared);
  if (frontend) return frontend;
  // the delegate agent's prompt (with AWAKEN_A2A_REMOTE_URL): ask the remote A2A agent
  const ask = /^ask remote:\s*(.{1,2000})$/is.exec(text);
  if (ask?.[1]) return { kind: 'call', name: 'ask_remote', args: { message: ask[1].trim() } };
  // the demo agent's sub-agents: `ask the janitor to <task> [and the archivist to <task>]`
  const delegation =
    /\bask (?:the )?(janitor|archivist) to (.{1,300}?)(?:\s+and (?:the )?(janitor|archivist) to (.{1,300}))?$/i.exec(
      text,
    );
  if (delegation?.[1] && delegation[2]) {
    const [, first, task, second, secondTask] = delegation;
    const who = (name: string) => name.toLowerCase();
    return {
      kind: 'call',
      name: who(first),
      args: { task: task.trim() },
      text: second
        ? `I will ask the ${who(first)} and the ${who(second)}. `
        : `I will ask the ${who(first)}. `,
      ...(second && secondTask ? { more: [{ name: who(second), args: { task: secondTask.trim() } }] } : {}),
    };
  }
  const transfer = /\btransfer\s+me\s+to\s+([\w-]{1,40})/i.exec(text);
  const handoff = `transfer_to_${transfer?.[1]?.toLowerCase()}`;
  if (transfer?.[1] && declared.has(handoff)) {
    const reason = `the user asked for ${transfer[1]}`;
    return { kind: 'call', name: handoff, args: { reason }, text: `Transferring you to ${transfer[1]}. ` };
  }
  const weather = /weather(?:\s+in)?\s+([\p{L} .'-]{1,60})/iu.exec(text);
  if (weather?.[1])
    return { kind: 'call', name: 'get_weather', args: { city: weather[1].trim() }, text: 'Let me check. ' };
  const restart = /\brestart\s+([\w.-]{1,60})/i.exec(text);
  if (restart?.[1])
    return { kind: 'call', name: 'restart_service', args: { service: restart[1] }, text: 'Asking first. ' };
  const invoice = /\bsend\s+invoice\s+([\w-]{1,40})/i.exec(text);
  if (invoice?.[1]) return { kind: 'call', name: 'send_invoice', args: { invoice: invoice[1] } };
  const deletion = /\b(?:delete|remove)\s+(\S{1,300})(?:\s+and\s+(\S{1,300}))?/i.exec(text);
  if (deletion?.[1]) {
    const second = deletion[2];
    return {
      kind: 'call',
      name: 'delete_file',
      args: { path: deletion[1] },
      text: second ? `I will delete ${deletion[1]} and ${second}. ` : `I will delete ${deletion[1]}. `,
      ...(second ? { more: [{ args: { path: second } }] } : {}),
    };
  }
  if (/\b(?:colou?r|pick|choose)\b/i.test(text)) {
    return { kind: 'call', name: 'choose_color', args: { options: ['red', 'green', 'blue'] } };
  }
  const count = /\bcount\s+to\s+(\d{1,4})\b/i.exec(text);
  if (count?.[1]) {
    const upTo = Math.min(Number(count[1]), 1000);
    const numbers = Array.from({ length: upTo }, (_, index) => String(index + 1)).join(' ');
    return { kind: 'text', text: `${numbers}.`, chunk: 0, delayMs };
  }
  const prompts = DEMO_PROMPTS.map((entry) => `"${entry.prompt}"`).join(', ');
  return { kind: 'text', text: `Hello from the Awaken demo model. Try ${prompts}.` };
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** Text deltas: words (chunk 0, one per `delayMs`) or 12-character pieces. */
function pieces(text: string, chunk: number): string[] {
  if (chunk === 0) return text.split(/(?<= )/);
  const out: string[] = [];
  for (let index = 0; index < text.length; index += chunk) out.push(text.slice(index, index + chunk));
  return out;
}

/**
 * A deterministic model for trying the whole human-in-the-loop flow with no provider key: it reads
 * the last message, calls the demo tools for the prompts in {@link DEMO_PROMPTS}, and answers the
 * tool results it gets back (approved, denied or edited).
 */
export function createDemoModel(options: { delayMs: number }): ModelExecutor {
  return {
    modelId: 'awaken:demo',
    async *stream(request: InferenceRequest): AsyncIterable<InferenceStreamPart> {
      const declared = new Set((request.tools ?? []).map((tool) => tool.name));
      if (
        trailingResults(request.messages).length === 0 &&
        /\bfail permanently\b/i.test(lastUserText(request.messages))
      ) {
        throw new AwakenError(
          'model_permanent',
          'the demo model refuses "fail permanently" (a permanent failure)',
        );
      }
      const next = plan(request.messages, options.delayMs, declared);
      const text = next.text ?? '';
      const chunk = next.kind === 'text' ? (next.chunk ?? 12) : 12;
      const delayMs = next.kind === 'text' ? (next.delayMs ?? 0) : 0;
      for (const delta of pieces(text, chunk)) {
        await pause(delayMs, request.signal);
        yield { type: 'text_delta', delta };
      }
      if (next.kind === 'call') {
        const calls = [{ name: next.name, args: next.args }, ...(next.more ?? [])];
        for (const [index, call] of calls.entries()) {
          const name = call.name ?? next.name;
          const toolCallId = `call_${request.messages.length}_${name}${index === 0 ? '' : `_${index + 1}`}`;
          const input = JSON.stringify(call.args);
          yield { type: 'tool_call_start', toolCallId, toolName: name };
          yield { type: 'tool_call_args_delta', toolCallId, delta: input };
          yield { type: 'tool_call', toolCallId, toolName: name, input };
        }
      }
      yield {
        type: 'finish',
        finishReason: next.kind === 'call' ? 'tool-calls' : 'stop',
        usage,
        model: 'awaken:demo',
      };
    },
  };
}
