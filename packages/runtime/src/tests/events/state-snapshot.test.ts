import { type Plugin, defineStateKey } from '@awaken/contract';
import { echoTool, pendingTool } from '@awaken/testing';
import { describe, expect, it } from 'vitest';
import { approve, collect, createHarness } from '../../../test-support/harness';

const toolCount = defineStateKey<number>({
  name: 'tools-run',
  scope: 'run',
  persistent: true,
  initial: () => 0,
});
const scratch = defineStateKey<number>({
  name: 'scratch',
  scope: 'run',
  persistent: false,
  initial: () => 0,
});

/** Counts finished tool calls in a persistent run key, and scribbles in a non-persistent one. */
const counter: Plugin = {
  id: 'counter',
  stateKeys: [toolCount, scratch],
  hooks: {
    afterToolExecute: (context) => {
      context.state.update(toolCount, (count) => count + 1);
      context.state.update(scratch, (count) => count + 1);
    },
  },
};

const call = (id: string, name: string, args: unknown) => ({ toolCalls: [{ id, name, arguments: args }] });
const snapshots = (events: Awaited<ReturnType<typeof collect>>) =>
  events.flatMap((event) => (event.type === 'state_snapshot' ? [event.state] : []));

describe('state_snapshot events', () => {
  it('are not emitted when no plugin keeps persistent state', async () => {
    const { runtime } = createHarness(
      { tools: [echoTool] },
      { turns: [call('c1', 'echo', { text: 'x' }), { text: 'ok' }] },
    );
    const events = await collect(runtime.run({ agentId: 'agent', input: 'hi' }));
    expect(snapshots(events)).toEqual([]);
  });

  it('carry the persistent plugin state whenever it changed, before the checkpoint that stores it', async () => {
    const { runtime, store } = createHarness(
      { tools: [echoTool], plugins: [counter] },
      { turns: [call('c1', 'echo', { text: 'x' }), call('c2', 'echo', { text: 'y' }), { text: 'ok' }] },
    );
    const handle = runtime.run({ agentId: 'agent', input: 'hi' });
    const events = await collect(handle);
    // non-persistent keys never appear; each tool round changed the count once
    expect(snapshots(events)).toEqual([{ 'run:tools-run': 1 }, { 'run:tools-run': 2 }]);
    const firstSnapshot = events.findIndex((event) => event.type === 'state_snapshot');
    const firstDone = events.findIndex((event) => event.type === 'tool_call_done');
    expect(firstSnapshot).toBeGreaterThan(firstDone);
    const stored = await store.getRun((await handle.result).runId);
    expect(JSON.stringify(stored?.state)).toContain('tools-run');
  });

  it('open a resumed activation with the current state, identically hot and cold', async () => {
    const turns = () => [
      call('c1', 'echo', { text: 'x' }),
      call('c2', 'ask_human', { question: 'q?' }),
      { text: 'ok' },
    ];
    const hot = createHarness({ tools: [echoTool, pendingTool], plugins: [counter] }, { turns: turns() });
    const hotHandle = hot.runtime.run({ agentId: 'agent', input: 'hi', onSuspend: 'wait' });
    const hotEvents: Awaited<ReturnType<typeof collect>> = [];
    for await (const event of hotHandle) {
      hotEvents.push(event);
      if (event.type === 'run_finish' && event.status === 'waiting')
        await hotHandle.decide(approve('c2', 'yes'));
    }

    const cold = createHarness({ tools: [echoTool, pendingTool], plugins: [counter] }, { turns: turns() });
    const first = cold.runtime.run({ agentId: 'agent', input: 'hi' });
    const coldEvents = await collect(first);
    const { runId } = await first.result;
    const fresh = createHarness(
      { tools: [echoTool, pendingTool], plugins: [counter] },
      { store: cold.store, model: cold.model },
    );
    coldEvents.push(
      ...(await collect(fresh.runtime.resumeRun(runId, { decisions: [approve('c2', 'yes')] }))),
    );

    const afterResume = (events: typeof hotEvents) =>
      events.slice(events.findLastIndex((event) => event.type === 'run_start')).map((event) => event.type);
    expect(afterResume(coldEvents)).toEqual(afterResume(hotEvents));
    expect(snapshots(hotEvents)).toEqual(snapshots(coldEvents));
    // AfterToolExecute ran for c1, for c2's suspension (seed 001) and for c2's replay
    expect(snapshots(coldEvents).at(-1)).toEqual({ 'run:tools-run': 3 });
  });
});
