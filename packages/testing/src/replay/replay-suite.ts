import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRunRecording } from '@awaken/contract';
import { type ReplayOptions, type ReplayReport, type ReplayableAgent, replayRun } from './replay-run';

/** One recording of a suite and what replaying it found. */
export interface ReplaySuiteEntry {
  file: string;
  /** The replay's report; absent when the file could not be replayed (`error` says why). */
  report?: ReplayReport;
  error?: string;
}

/** Options of {@link runReplaySuite}: the agents as defined now, and how to build a runtime. */
export interface ReplaySuiteOptions<A extends ReplayableAgent, S>
  extends Omit<ReplayOptions<A, S>, 'agents'> {
  /** Every agent a recording may name (by its header's `agentId`) or hand off to. */
  agents: A[];
}

/**
 * Replays every `*.ndjson` recording of `folder` (sorted by name) with {@link replayRun}. A file
 * that is not a valid recording, or names an agent not in `agents`, is an entry with `error`.
 */
export async function runReplaySuite<A extends ReplayableAgent, S>(
  folder: string,
  options: ReplaySuiteOptions<A, S>,
): Promise<ReplaySuiteEntry[]> {
  const files = (await readdir(folder)).filter((name) => name.endsWith('.ndjson')).sort();
  const entries: ReplaySuiteEntry[] = [];
  for (const file of files) {
    try {
      const text = await readFile(join(folder, file), 'utf8');
      const recording = parseRunRecording(text);
      const { agentId } = recording.header;
      const agent = options.agents.find((candidate) => candidate.id === agentId);
      if (!agent) {
        entries.push({
          file,
          error: `no agent "${String(agentId)}" (known: ${options.agents.map((a) => a.id).join(', ')})`,
        });
        continue;
      }
      entries.push({ file, report: await replayRun(recording, agent, options) });
    } catch (error) {
      entries.push({ file, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return entries;
}

/** True when every entry replayed without a divergence or an error. */
export function replaySuitePassed(entries: readonly ReplaySuiteEntry[]): boolean {
  return entries.length > 0 && entries.every((entry) => entry.report?.ok === true);
}

/** A readable report: one line per recording, and the diff of each that diverged or failed. */
export function formatReplaySuite(entries: readonly ReplaySuiteEntry[]): string {
  const lines: string[] = [];
  for (const entry of entries) {
    const report = entry.report;
    if (!report) {
      lines.push(`FAIL ${entry.file}: ${entry.error}`);
      continue;
    }
    const counts = `${report.recordedEvents} events, ${report.modelCalls} model turns from the recording`;
    if (report.ok) lines.push(`ok   ${entry.file} (run ${report.runId}, ${counts})`);
    else {
      lines.push(`DIFF ${entry.file} (run ${report.runId}, ${counts})`);
      lines.push(...(report.divergence?.diff ?? '').split('\n').map((line) => `     ${line}`));
    }
  }
  const failed = entries.filter((entry) => entry.report?.ok !== true).length;
  lines.push(
    entries.length === 0
      ? 'no recordings (*.ndjson) found'
      : `${entries.length - failed} of ${entries.length} recordings replayed without a divergence`,
  );
  return lines.join('\n');
}
