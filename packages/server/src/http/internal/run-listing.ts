import {
  type Page,
  type RunRecord,
  type RunStatus,
  type ThreadRunStore,
  readToolCallStates,
} from '@awaken/contract';

/** What the runs list asks: store filters (status, thread) and filters applied to the runs read. */
export interface RunListQuery {
  cursor?: string;
  limit: number;
  status?: RunStatus[];
  threadId?: string;
  agentId?: string;
  /** Termination types of done runs (`error`: the failed ones). */
  termination?: string[];
  /** Created at or after / before (ms). */
  from?: number;
  to?: number;
  /** Case-insensitive text in the run id, thread id, agent, prompt, response or error. */
  text?: string;
  /** A tool the run called (by name). */
  tool?: string;
}

/** A listed run and the text of its prompt (its first input message). */
export interface ListedRun {
  record: RunRecord;
  prompt?: string;
}

/** At most this many runs are read per request when filters apply beyond status and thread. */
export const SCAN_BUDGET = 1000;
/** At most this many store pages are read per request. */
const MAX_READS = 20;
const PROMPT_CHARS = 280;

/**
 * One page of the runs list. Status and thread are answered by the store's indexes
 * (`listAllRuns`, `listRuns`); agent, termination, time, text and tool are applied to the runs read,
 * newest first, at most {@link SCAN_BUDGET} runs (and 20 store reads) per request: a page may come back
 * short — even empty — with a `nextCursor` to scan on. `scanned` says how many runs were read. Store
 * pages are read with a limit no larger than what the page still needs, so every run read is either
 * returned or filtered out, and the cursor (the store's) never skips a match.
 */
export async function listRunsPage(
  store: ThreadRunStore,
  query: RunListQuery,
): Promise<Page<ListedRun> & { scanned: number }> {
  const scanning = hasScanFilter(query);
  const items: ListedRun[] = [];
  let cursor = query.cursor;
  let scanned = 0;
  let reads = 0;
  let more = true;
  while (items.length < query.limit && more && scanned < SCAN_BUDGET && reads < MAX_READS) {
    const want = query.limit - items.length;
    const limit = scanning ? Math.min(SCAN_BUDGET - scanned, Math.max(want, 1)) : want;
    const page = await readStore(store, query, { limit, ...(cursor ? { cursor } : {}) });
    reads += 1;
    scanned += page.items.length;
    for (const record of page.items) {
      if (!matchesCheap(record, query)) continue;
      const prompt = await promptOf(store, record);
      if (query.text !== undefined && !matchesText(record, prompt, query.text)) continue;
      items.push({ record, ...(prompt === undefined ? {} : { prompt }) });
    }
    cursor = page.nextCursor;
    more = cursor !== undefined;
    if (!scanning) break;
  }
  return { items, ...(more && cursor ? { nextCursor: cursor } : {}), scanned };
}

function hasScanFilter(query: RunListQuery): boolean {
  return [query.agentId, query.termination, query.from, query.to, query.text, query.tool].some(
    (value) => value !== undefined,
  );
}

function readStore(
  store: ThreadRunStore,
  query: RunListQuery,
  page: { limit: number; cursor?: string },
): Promise<Page<RunRecord>> {
  const status = query.status ? { status: query.status } : {};
  if (query.threadId !== undefined) return store.listRuns(query.threadId, { ...page, ...status });
  return store.listAllRuns({ ...page, ...status });
}

function matchesCheap(record: RunRecord, query: RunListQuery): boolean {
  if (query.agentId !== undefined && record.agentId !== query.agentId) return false;
  if (query.from !== undefined && record.createdAt < query.from) return false;
  if (query.to !== undefined && record.createdAt >= query.to) return false;
  if (query.termination !== undefined) {
    const type = record.termination?.type;
    if (record.status !== 'done' || type === undefined || !query.termination.includes(type)) return false;
  }
  if (query.tool !== undefined) {
    const tool = query.tool;
    if (!readToolCallStates(record).some((call) => call.toolName === tool)) return false;
  }
  return true;
}

function matchesText(record: RunRecord, prompt: string | undefined, text: string): boolean {
  const needle = text.toLowerCase();
  const error = record.termination?.type === 'error' ? record.termination.message : undefined;
  return [record.runId, record.threadId, record.agentId, prompt, record.response, error].some((field) =>
    field?.toLowerCase().includes(needle),
  );
}

/** The run's first input message that is a user's text (cut to 280 characters), if any. */
async function promptOf(store: ThreadRunStore, record: RunRecord): Promise<string | undefined> {
  const range = record.inputRange;
  if (range === undefined || range.to < range.from) return undefined;
  // the first few input messages only: an input may carry a whole conversation
  const to = Math.min(range.to, range.from + 9);
  const messages = await store.readMessages(record.threadId, { from: range.from, to });
  for (const entry of messages) {
    if (entry.message.role === 'user') return entry.message.content.slice(0, PROMPT_CHARS);
  }
  return undefined;
}
