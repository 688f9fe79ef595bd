import {
  type MessageRecord,
  type RunRecord,
  type Thread,
  messageRecordSchema,
  parseWith,
  runRecordSchema,
  threadSchema,
} from '@awaken/contract';

const OPTIONAL_POINTERS = ['activeRunId', 'openRunId', 'latestRunId'] as const;

/** Decodes a thread hash (object or flat `HGETALL` array) and validates it. */
export function decodeThread(hash: Record<string, string> | unknown[]): Thread {
  const fields = Array.isArray(hash) ? flatToObject(hash) : hash;
  const thread: Record<string, unknown> = {
    id: fields.id,
    metadata: JSON.parse(fields.metadata ?? '{}'),
    createdAt: Number(fields.createdAt),
    updatedAt: Number(fields.updatedAt),
  };
  if (fields.title !== undefined) thread.title = JSON.parse(fields.title);
  if (fields.branchSource !== undefined) {
    thread.branchOf = { threadId: fields.branchSource, seq: Number(fields.branchSeq ?? 0) };
  }
  for (const pointer of OPTIONAL_POINTERS) {
    if (fields[pointer] !== undefined) thread[pointer] = fields[pointer];
  }
  return parseWith(threadSchema, thread, 'stored thread');
}

export function decodeRun(json: string): RunRecord {
  return parseWith(runRecordSchema, JSON.parse(json), 'stored run');
}

export function decodeMessage(json: string): MessageRecord {
  return parseWith(messageRecordSchema, JSON.parse(json), 'stored message');
}

function flatToObject(flat: unknown[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (let index = 0; index + 1 < flat.length; index += 2)
    result[String(flat[index])] = String(flat[index + 1]);
  return result;
}
