import type { AgentEvent } from '@awaken/contract';

/** Splits a run's events into activations, each from `run_start` to its `run_finish`. */
export function activations(events: readonly AgentEvent[]): AgentEvent[][] {
  const result: AgentEvent[][] = [];
  for (const event of events) {
    if (event.type === 'run_start' || result.length === 0) result.push([]);
    result.at(-1)!.push(event);
  }
  return result;
}

const STREAMED = new Set([
  'text_start',
  'text_delta',
  'text_end',
  'reasoning_start',
  'reasoning_delta',
  'reasoning_end',
]);
const IN_STEP = new Set([
  ...STREAMED,
  'tool_call_start',
  'tool_call_args_delta',
  'tool_call_ready',
  'tool_call_suspended',
  'tool_call_resumed',
  'tool_call_done',
  'inference_complete',
]);

/**
 * Every way an activation's events break the bracket structure adapters rely on: it opens with
 * `run_start` and closes with `run_finish`; each `step_start` is closed by a `step_end` of the same
 * step before the next one and before `run_finish`; text and reasoning deltas sit between their start
 * and end; model and tool events sit inside a step; a step that called the model has exactly one
 * `inference_complete`, after its streamed parts. An empty list means well framed.
 */
export function framingViolations(activation: readonly AgentEvent[]): string[] {
  const problems: string[] = [];
  const where = (event: AgentEvent) => `${event.type}#${event.seq}`;
  if (activation[0]?.type !== 'run_start') problems.push('does not open with run_start');
  if (activation.at(-1)?.type !== 'run_finish') problems.push('does not close with run_finish');
  let step: number | undefined;
  let text: string | undefined;
  let reasoning: string | undefined;
  let inferences = 0;
  let streamedSinceInference = false;
  for (const event of activation) {
    if (IN_STEP.has(event.type) && step === undefined) problems.push(`${where(event)} outside a step`);
    switch (event.type) {
      case 'step_start':
        if (step !== undefined) problems.push(`${where(event)} while step ${step} is open`);
        step = event.step;
        inferences = 0;
        streamedSinceInference = false;
        break;
      case 'step_end':
        if (step !== event.step) problems.push(`${where(event)} closes step ${event.step}, open: ${step}`);
        if (text !== undefined || reasoning !== undefined)
          problems.push(`${where(event)} with an open block`);
        if (streamedSinceInference)
          problems.push(`${where(event)}: streamed parts without inference_complete`);
        step = undefined;
        break;
      case 'text_start':
      case 'reasoning_start': {
        if (text !== undefined || reasoning !== undefined)
          problems.push(`${where(event)} inside an open block`);
        if (event.type === 'text_start') text = event.messageId;
        else reasoning = event.messageId;
        streamedSinceInference = true;
        break;
      }
      case 'text_delta':
      case 'text_end':
        if (text !== event.messageId) problems.push(`${where(event)} without its text_start`);
        if (event.type === 'text_end') text = undefined;
        break;
      case 'reasoning_delta':
      case 'reasoning_end':
        if (reasoning !== event.messageId) problems.push(`${where(event)} without its reasoning_start`);
        if (event.type === 'reasoning_end') reasoning = undefined;
        break;
      case 'tool_call_start':
      case 'tool_call_args_delta':
        if (inferences > 0) problems.push(`${where(event)} after inference_complete`);
        streamedSinceInference = true;
        break;
      case 'inference_complete':
        if (text !== undefined || reasoning !== undefined)
          problems.push(`${where(event)} with an open block`);
        if (step !== event.step) problems.push(`${where(event)} for step ${event.step}, open: ${step}`);
        inferences += 1;
        if (inferences > 1) problems.push(`${where(event)}: a second inference_complete in step ${step}`);
        streamedSinceInference = false;
        break;
      case 'run_finish':
        if (step !== undefined) problems.push(`run_finish with step ${step} open`);
        break;
      default:
        break;
    }
  }
  return problems;
}
