import type { InferenceRequest } from '@awaken/contract';
import {
  createMemoryRunControlInbox,
  createMemoryRunEventLog,
  createMemoryThreadRunStore,
} from '@awaken/store-memory';
import { createControllableTool, createScriptedModel } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { subAgentHarness } from '../../../test-support/sub-agents';
import { childIdsOf } from '../../internal/child-ids/child-ids';

/** `store` whose calls are recorded as `method runId` (the first argument when it is a string). */
function recorded<T extends object>(store: T, calls: string[]): T {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(`${String(key)} ${typeof args[0] === 'string' ? args[0] : ''}`.trim());
        return value.apply(target, args);
      };
    },
  });
}

/** The janitor lists the files (its call blocks until released), then answers; input gets "hi". */
function janitorListing() {
  return createScriptedModel((request: InferenceRequest) => {
    const last = request.messages.at(-1);
    if (last?.role === 'user' && last.content === 'also say hi') return { text: 'hi' };
    if (last?.role === 'tool') return { text: 'listed' };
    return { toolCalls: [{ id: 'list', name: 'list_files', arguments: {} }] };
  });
}

function shared(now?: () => number) {
  return {
    store: createMemoryThreadRunStore(now ? { now } : {}),
    eventLog: createMemoryRunEventLog(),
    inbox: createMemoryRunControlInbox(),
  };
}

/** A process: the parent delegates to a janitor whose `list_files` blocks until released. */
function process(stores = shared(), runtime = {}) {
  const list = createControllableTool('list_files');
  const calls: string[] = [];
  const janitor = janitorListing();
  const harness = subAgentHarness({
    store: stores.store,
    eventLog: recorded(stores.eventLog, calls),
    inbox: recorded(stores.inbox, calls),
    janitor,
    janitorPlugins: [],
    janitorAgent: { tools: [list.tool] },
    runtime,
  });
  return { ...harness, stores, list, calls, janitor };
}

const childOf = (parentRunId: string) => childIdsOf({ runId: parentRunId, step: 1, callId: 'delegate_0' });

describe('a fresh child run driven inline by its parent', () => {
  it('neither subscribes to nor reads its control inbox before its loop, nor raises its log fence', async () => {
    const a = process();
    const handle = a.runtime.run({ agentId: 'assistant', input: 'list the files' });
    await a.list.started('list');
    const child = childOf(handle.runId);
    const ofChild = () => a.calls.filter((call) => call.endsWith(` ${child.runId}`));
    const watching = /^(subscribe|peek|raiseFence) /;
    expect(ofChild().filter((call) => watching.test(call))).toEqual([]);
    a.list.release('list', { files: [] });
    await expect(handle.result).resolves.toMatchObject({ status: 'done' });
    // the gate the child ends after still peeks; the parent listens and raises its fence as before
    expect(ofChild().filter((call) => watching.test(call))).toEqual([`peek ${child.runId}`]);
    expect(a.calls).toContain(`subscribe ${handle.runId}`);
    expect(a.calls).toContain(`raiseFence ${handle.runId}`);
    expect(await a.stores.eventLog.read(child.runId)).toContainEqual(
      expect.objectContaining({ type: 'run_finish', runId: child.runId }),
    );
  });

  it('is cancelled by a cancelRun of the child from another process (at its lease tick)', async () => {
    const lease = { runLease: { leaseMs: 300 } };
    const a = process(shared(), lease);
    const b = process(a.stores, lease);
    const handle = a.runtime.run({ agentId: 'assistant', input: 'list the files' });
    await a.list.started('list');
    const child = childOf(handle.runId);
    const cancelled = await b.runtime.cancelRun(child.runId, 'stop the janitor');
    expect(cancelled).toMatchObject({ status: 'done', termination: { type: 'cancelled' } });
    const done = await handle.result;
    expect(done.status).toBe('done');
    expect(done.response).toContain('was cancelled: stop the janitor');
    expect(await a.stores.inbox.peek(child.runId)).toEqual([]);
  });

  it('answers input put into its inbox while it ran before it ends', async () => {
    const a = process();
    const handle = a.runtime.run({ agentId: 'assistant', input: 'list the files' });
    await a.list.started('list');
    const child = childOf(handle.runId);
    const message = { role: 'user' as const, content: 'also say hi' };
    await a.stores.inbox.put(child.runId, { kind: 'input', id: 'input_1', messages: [message], at: 1 });
    a.list.release('list', { files: [] });
    const done = await handle.result;
    expect(done.response).toContain('hi');
    const messages = (await a.stores.store.readMessages(child.threadId)).map((record) => record.message);
    expect(messages.slice(-2)).toEqual([message, expect.objectContaining({ role: 'assistant' })]);
    expect(a.janitor.callCount).toBe(3);
  });

  it('taken over by a re-executed parent call, appends and writes nothing more to the child', async () => {
    let time = 1_000_000;
    const lease = { runLease: { leaseMs: 60_000 } };
    const a = process(
      shared(() => time),
      lease,
    );
    const b = process(a.stores, lease);
    const stale = a.runtime.run({ agentId: 'assistant', input: 'list the files' });
    stale.result.catch(() => {});
    await a.list.started('list');
    const child = childOf(stale.runId);
    expect(a.calls).not.toContain(`raiseFence ${child.runId}`);

    time += 60_001; // A's leases on the parent and its fresh child (fence 1) lapse
    const resumed = b.runtime.resumeRun(stale.runId);
    await b.list.started('list');
    b.list.release('list', { files: ['/tmp/b.txt'] });
    await expect(resumed.result).resolves.toMatchObject({ status: 'done' });
    expect(b.calls).toContain(`raiseFence ${child.runId}`);
    const record = await a.stores.store.getRun(child.runId);
    const events = await a.stores.eventLog.read(child.runId);

    const before = a.calls.length;
    a.list.release('list', { files: ['/tmp/a.txt'] });
    await expect(stale.result).rejects.toMatchObject({ code: 'detached' });
    // it tried to log the call's end with its fence 1, after B raised the log's fence to 2
    expect(a.calls.slice(before)).toContain(`append ${child.runId}`);
    // A's late child wrote nothing: not its record, not its event log
    expect(await a.stores.store.getRun(child.runId)).toEqual(record);
    expect(await a.stores.eventLog.read(child.runId)).toEqual(events);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.filter((event) => event.type === 'run_finish')).toHaveLength(1);
  });
});
