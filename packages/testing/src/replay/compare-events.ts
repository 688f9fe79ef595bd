import type { AgentEvent } from '@awaken/contract';

/**
 * Fields a replay may legitimately change, left out wherever they occur in an event before
 * comparing: `at` (when the event was produced), `durationMs` (how long a model call took),
 * `expiresAt` (a ticket's deadline, counted from when it was raised), `messageId` (generated per
 * streamed message), `ticketId` and the ticket's `suspension.id` (generated per suspension), and a
 * decision record's `appliedAt` (when the replay applied it; `decidedAt` is the recorded decision's). Everything else — types, order, `seq`, run and thread
 * ids (a replay reuses the recorded ones), text, tool names, arguments, results, usage, statuses —
 * must be equal.
 */
export const REPLAY_IGNORED_FIELDS: readonly string[] = [
  'at',
  'durationMs',
  'expiresAt',
  'messageId',
  'ticketId',
  'suspension.id',
  'appliedAt',
];

const IGNORED_KEYS = new Set(REPLAY_IGNORED_FIELDS.filter((field) => !field.includes('.')));

function strip(value: unknown, parent?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    if (IGNORED_KEYS.has(key)) continue;
    if (parent === 'suspension' && key === 'id') continue;
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    out[key] = strip(item, key);
  }
  return out;
}

/** An event with the fields of {@link REPLAY_IGNORED_FIELDS} left out and its keys sorted. */
export function normalizeEvent(event: AgentEvent): unknown {
  return strip(event);
}

/** Where a replay first differs from its recording. */
export interface ReplayDivergence {
  /** 0-based position in the run's events (the event's `seq` is `index + 1`). */
  index: number;
  /** The recorded event there (absent when the replay produced more events). */
  recorded?: AgentEvent;
  /** The replayed event there (absent when the replay ended early). */
  replayed?: AgentEvent;
  /** A readable diff: one line per differing field, `path: recorded → replayed`. */
  diff: string;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'absent' : text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

function differences(recorded: unknown, replayed: unknown, path: string, out: string[]): void {
  if (out.length >= 20) return;
  const bothObjects =
    typeof recorded === 'object' && recorded !== null && typeof replayed === 'object' && replayed !== null;
  if (bothObjects && Array.isArray(recorded) === Array.isArray(replayed)) {
    const keys = new Set([...Object.keys(recorded as object), ...Object.keys(replayed as object)]);
    for (const key of keys) {
      differences(
        (recorded as Record<string, unknown>)[key],
        (replayed as Record<string, unknown>)[key],
        path ? `${path}.${key}` : key,
        out,
      );
    }
    return;
  }
  if (JSON.stringify(recorded) !== JSON.stringify(replayed))
    out.push(`  ${path || '(event)'}: ${show(recorded)} → ${show(replayed)}`);
}

/** A one-line summary of an event: its seq, type and what names it. */
export function describeEvent(event: AgentEvent): string {
  const named = event as { toolName?: string; toolCallId?: string; step?: number; status?: string };
  const parts = [
    named.toolName,
    named.toolCallId,
    named.step === undefined ? undefined : `step ${named.step}`,
    named.status,
  ];
  return `#${event.seq} ${event.type}${parts.some(Boolean) ? ` (${parts.filter(Boolean).join(', ')})` : ''}`;
}

/** The first position where the two event lists differ (ignored fields aside), or undefined. */
export function firstDivergence(
  recorded: readonly AgentEvent[],
  replayed: readonly AgentEvent[],
): ReplayDivergence | undefined {
  const length = Math.max(recorded.length, replayed.length);
  for (let index = 0; index < length; index += 1) {
    const before = recorded[index];
    const after = replayed[index];
    if (before && after) {
      const lines: string[] = [];
      differences(normalizeEvent(before), normalizeEvent(after), '', lines);
      if (lines.length === 0) continue;
      return {
        index,
        recorded: before,
        replayed: after,
        diff: [
          `event ${index + 1}: recorded ${describeEvent(before)}, replayed ${describeEvent(after)}`,
          ...lines,
        ].join('\n'),
      };
    }
    if (before) {
      return {
        index,
        recorded: before,
        diff: `event ${index + 1}: the replay ended after ${replayed.length} events; the recording goes on with ${describeEvent(before)} (${recorded.length} events)`,
      };
    }
    return {
      index,
      ...(after ? { replayed: after } : {}),
      diff: `event ${index + 1}: the recording ended after ${recorded.length} events; the replay goes on with ${after ? describeEvent(after) : '?'}`,
    };
  }
  return undefined;
}
