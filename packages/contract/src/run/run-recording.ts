import { z } from 'zod';
import { AwakenError } from '../errors/awaken-error';
import { type AgentEvent, agentEventSchema } from '../events/agent-event';
import { userMessageSchema } from '../messages/message';
import { clientToolSchema } from '../tool/client-tool';
import { agentPinSchema } from './agent-pin';
import { runContextSchema } from './run-context';
import { runStatusSchema } from './run-status';
import { terminationReasonSchema } from './termination-reason';

/** The `format` of a run recording's header line. */
export const RUN_RECORDING_FORMAT = 'awaken.run-recording';
/** The recording version this library writes and reads. */
export const RUN_RECORDING_VERSION = 1;
/** The media type of a recording: newline-delimited JSON. */
export const RUN_RECORDING_MEDIA_TYPE = 'application/x-ndjson';

/**
 * The first line of a recording: what is needed to replay the run besides its events — the input
 * that started it, its agent and the pin of that agent's definition, its context and client tools.
 */
export const runRecordingHeaderSchema = z.object({
  type: z.literal('recording'),
  format: z.literal(RUN_RECORDING_FORMAT),
  version: z.literal(RUN_RECORDING_VERSION),
  runId: z.string().min(1),
  threadId: z.string().min(1),
  agentId: z.string().min(1),
  agentPin: agentPinSchema.optional(),
  /** The run's input messages (what `input` of the run request committed to the thread). */
  input: z.array(userMessageSchema),
  context: runContextSchema.optional(),
  clientTools: z.array(clientToolSchema).optional(),
  /** The run's status and termination when it was exported. */
  status: runStatusSchema,
  termination: terminationReasonSchema.optional(),
  /** When it was exported (epoch ms). */
  recordedAt: z.number().int().nonnegative(),
});
export type RunRecordingHeader = z.infer<typeof runRecordingHeaderSchema>;

/** The last line of a recording: its event count. A recording without it is truncated. */
export const runRecordingEndSchema = z.object({
  type: z.literal('recording_end'),
  events: z.number().int().nonnegative(),
});
export type RunRecordingEnd = z.infer<typeof runRecordingEndSchema>;

/** A parsed recording: its header and its events in `seq` order. */
export interface RunRecording {
  header: RunRecordingHeader;
  events: AgentEvent[];
}

/** One recording line (a header, an event or the end line) as NDJSON text, newline included. */
export function recordingLine(value: RunRecordingHeader | AgentEvent | RunRecordingEnd): string {
  return `${JSON.stringify(value)}\n`;
}

function invalid(message: string): AwakenError {
  return new AwakenError('validation_failed', `invalid run recording: ${message}`);
}

function parseLine(line: string, number: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    const shown = line.length > 60 ? `${line.slice(0, 60)}…` : line;
    throw invalid(
      `line ${number} is not JSON (${JSON.stringify(shown)}); a recording is NDJSON, one object a line`,
    );
  }
}

function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(line)'}: ${issue.message}`)
    .join('; ');
}

function parseHeader(value: unknown): RunRecordingHeader {
  const head = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (head.type !== 'recording' || head.format !== RUN_RECORDING_FORMAT)
    throw invalid(`line 1 is not a recording header (expected format "${RUN_RECORDING_FORMAT}")`);
  if (head.version !== RUN_RECORDING_VERSION) {
    throw invalid(
      `version ${JSON.stringify(head.version)} is not supported (this library reads version ${RUN_RECORDING_VERSION})`,
    );
  }
  const parsed = runRecordingHeaderSchema.safeParse(value);
  if (!parsed.success) throw invalid(`line 1 (header): ${issuesOf(parsed.error)}`);
  return parsed.data;
}

/**
 * Parses a recording (the NDJSON text `GET /v1/runs/:id/recording` returns, or its lines). Throws
 * `validation_failed` naming the line for text that is not NDJSON, a header of another format or
 * version, an event that is not an `AgentEvent` of the run with consecutive `seq`, and a truncated
 * recording (no end line, or an end line whose count differs).
 */
export function parseRunRecording(source: string | Iterable<string>): RunRecording {
  const lines = (typeof source === 'string' ? source.split('\n') : [...source]).map((line) => line.trim());
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  if (lines.length === 0) throw invalid('it is empty');
  const header = parseHeader(parseLine(lines[0] as string, 1));
  const events: AgentEvent[] = [];
  let end: RunRecordingEnd | undefined;
  for (let index = 1; index < lines.length; index += 1) {
    const number = index + 1;
    if (end) throw invalid(`line ${number} comes after the end line`);
    const value = parseLine(lines[index] as string, number);
    if ((value as { type?: unknown } | null)?.type === 'recording_end') {
      const parsed = runRecordingEndSchema.safeParse(value);
      if (!parsed.success) throw invalid(`line ${number} (end): ${issuesOf(parsed.error)}`);
      end = parsed.data;
      continue;
    }
    const parsed = agentEventSchema.safeParse(value);
    if (!parsed.success) throw invalid(`line ${number} is not an event: ${issuesOf(parsed.error)}`);
    const event = parsed.data;
    if (event.runId !== header.runId)
      throw invalid(`line ${number} is an event of run ${event.runId}, not of ${header.runId}`);
    if (event.seq !== events.length + 1)
      throw invalid(`line ${number} has seq ${event.seq}, expected ${events.length + 1}`);
    events.push(event);
  }
  if (!end) throw invalid(`it is truncated: no end line after ${events.length} events`);
  if (end.events !== events.length)
    throw invalid(`it is truncated: the end line counts ${end.events} events, ${events.length} were read`);
  return { header, events };
}
