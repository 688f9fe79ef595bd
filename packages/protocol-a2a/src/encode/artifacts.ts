import type { A2aArtifact } from '../wire/a2a-types';

/** The id of the artifact that carries the run's text answer (its deltas are appended to it). */
export const ANSWER_ARTIFACT_ID = 'answer';

/** The id of the artifact that carries one tool call's result. */
export function toolResultArtifactId(toolCallId: string): string {
  return `tool-result-${toolCallId}`;
}

/** What ended a call, as its tool message records it. */
export interface ToolOutcome {
  toolCallId: string;
  toolName: string;
  outcome: 'succeeded' | 'failed' | 'cancelled' | 'expired';
  /** What the model reads: the output, the error, or why the call did not run. */
  content?: unknown;
}

/**
 * A tool call's result as an artifact `tool-result-<toolCallId>` with one data part:
 * `{toolCallId, toolName, output}` when it succeeded, `{…, denied: true, reason}` when it was declined
 * or cancelled, `{…, expired: true, reason}` when its approval expired unanswered (never a denial),
 * `{…, error}` when it failed.
 */
export function toolResultArtifact(result: ToolOutcome): A2aArtifact {
  const { toolCallId, toolName } = result;
  const content = result.content ?? null;
  const data =
    result.outcome === 'succeeded'
      ? { toolCallId, toolName, output: content }
      : result.outcome === 'cancelled'
        ? { toolCallId, toolName, denied: true, reason: content }
        : result.outcome === 'expired'
          ? { toolCallId, toolName, expired: true, reason: content }
          : { toolCallId, toolName, error: content };
  return {
    artifactId: toolResultArtifactId(toolCallId),
    name: toolName,
    parts: [{ data, mediaType: 'application/json' }],
  };
}

/** The text answer artifact. */
export function answerArtifact(text: string): A2aArtifact {
  return { artifactId: ANSWER_ARTIFACT_ID, name: 'answer', parts: [{ text, mediaType: 'text/plain' }] };
}
