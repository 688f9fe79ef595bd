import { AwakenError, type RunDispatch } from '@awaken/contract';
import { checkStoredDispatch } from './dispatch-checks';
import { DISPATCH_FIELD_NAMES, INPUTS_FIELD, NUMBER_FIELDS, unpackInputs } from './dispatch-fields';

const NAMES: Readonly<Record<string, string>> = DISPATCH_FIELD_NAMES;

/** Changes a script made after the hash it replied with was read (see `decodeDispatch`). */
export type DispatchChanges = Partial<Record<keyof RunDispatch, string | number | undefined>>;

/**
 * Decodes a dispatch reply — the `HGETALL` of `P d:<id>` (field, value, ...; see dispatch-fields.ts)
 * — applies `changes` (a hot-path script replies with the hash as it read it; the client applies the
 * writes it knows the script made: `undefined` removes a field) and checks the result against the
 * contract schema (`checkStoredDispatch`).
 */
export function decodeDispatch(dispatchId: string, pairs: unknown, changes?: DispatchChanges): RunDispatch {
  if (!Array.isArray(pairs) || pairs.length === 0 || pairs.length % 2 !== 0) {
    throw new AwakenError('store_failure', `redis: expected the fields of dispatch ${dispatchId}`);
  }
  const record: Record<string, unknown> = { dispatchId };
  for (let index = 0; index < pairs.length; index += 2) {
    setField(record, String(pairs[index]), String(pairs[index + 1]));
  }
  if (changes) {
    for (const name of Object.keys(changes) as (keyof RunDispatch)[]) {
      const value = changes[name];
      if (value === undefined) delete record[name];
      else record[name] = value;
    }
  }
  return checkStoredDispatch(record);
}

function setField(record: Record<string, unknown>, field: string, text: string): void {
  if (field === INPUTS_FIELD) {
    unpackInputs(record, text);
    return;
  }
  const name = NAMES[field];
  if (name === undefined) return; // the score, the stale-claim mark
  if (text === '' && (field === 'ct' || field === 'l')) return; // cleared when a claim ends
  if (NUMBER_FIELDS.has(field)) record[name] = Number(text);
  else if (field === 'rt') record[name] = JSON.parse(text);
  else record[name] = text;
}

/** Decodes a list reply: dispatch id, fields, dispatch id, fields, ... */
export function decodeDispatchList(reply: unknown, first = 0): RunDispatch[] {
  if (!Array.isArray(reply)) throw new AwakenError('store_failure', 'redis: expected a list of dispatches');
  const out: RunDispatch[] = [];
  for (let index = first; index < reply.length; index += 2) {
    out.push(decodeDispatch(String(reply[index]), reply[index + 1]));
  }
  return out;
}

/**
 * Decodes ioredis's `hgetall` of a dispatch hash (an object: ioredis turns the pairs into one):
 * null when the dispatch does not exist.
 */
export function decodeStoredDispatch(dispatchId: string, hash: Record<string, string>): RunDispatch | null {
  const record: Record<string, unknown> = { dispatchId };
  let empty = true;
  for (const field in hash) {
    empty = false;
    setField(record, field, hash[field] as string);
  }
  return empty ? null : checkStoredDispatch(record);
}
