import { type AppProcess, api, readSse } from '../../../test-support/app-process';

/** The janitor's prompt of the README. */
export const JANITOR_PROMPT = 'ask the janitor to delete /tmp/report.txt';
/** Two sub-agents in parallel. */
export const PARALLEL_PROMPT = 'ask the janitor to delete /tmp/a.txt and the archivist to delete /tmp/b.txt';

/**
 * How each `delete_file` call of a child run ended, from the child's own event log: one entry per
 * execution that finished (a call run twice would show twice).
 */
export async function deletions(app: AppProcess, childRunId: string): Promise<string[]> {
  const events = await runEvents(app, childRunId);
  return events
    .filter((event) => event.type === 'tool_call_done' && event.toolName === 'delete_file')
    .map((event) => event.status);
}

/**
 * Every event of a run's log: its event stream ends at each activation's `run_finish`, so it is read
 * again after the last event seen (`Last-Event-ID`) until nothing more comes.
 */
export async function runEvents(app: AppProcess, runId: string): Promise<Array<Record<string, any>>> {
  const all: Array<Record<string, any>> = [];
  for (;;) {
    const last = all.at(-1)?.seq;
    const response = await fetch(`${app.url}/v1/runs/${runId}/events`, {
      headers: last === undefined ? {} : { 'last-event-id': String(last) },
    });
    const { events } = await readSse(response);
    if (events.length === 0) return all;
    all.push(...events);
  }
}

/** The run as the REST API shows it. */
export async function runView(app: AppProcess, runId: string): Promise<Record<string, any>> {
  const { status, body } = await api(app.url, `/v1/runs/${runId}`);
  if (status !== 200) throw new Error(`GET /v1/runs/${runId}: ${status}`);
  return body;
}

/** The inbox items of the tenant (the first page). */
export async function inboxItems(app: AppProcess): Promise<Array<Record<string, any>>> {
  const { body } = await api(app.url, '/v1/inbox?limit=200');
  return body.items;
}
