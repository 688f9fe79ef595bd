import { randomUUID } from 'node:crypto';
import type { RunRecord } from '@awaken/contract';
import { expect } from 'vitest';
import { abortableDelay } from '../src/internal/service/abortable-delay';
import type { ServiceCluster } from './cluster';
import { AGENT_ID } from './scenario-agent';
import { acksAtMostOnce, decisionFor, dispatchesOf, finishes, record, toolCounts } from './suite-helpers';

interface Planned {
  runId: string;
  threadId: string;
  approvals: number;
  /** Also a `slow` call (300 ms), so some runs are still executing when a cancel arrives. */
  slow: boolean;
  /** Per call id: approved (true) or denied (false). */
  decided: Map<string, boolean>;
  cancelled: boolean;
  /** A cancel sent while the run executed (it may still have ended on its own first). */
  cancelledWhileRunning?: Promise<RunRecord>;
  /** The record version already acted on. */
  handledVersion: number;
}

/** A small deterministic random source, so a failure can be replayed from its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value ^= value + Math.imul(value ^ (value >>> 7), 61 | value);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function act(
  cluster: ServiceCluster,
  run: Planned,
  current: RunRecord,
  random: () => number,
): Promise<void> {
  run.handledVersion = current.version;
  // a suspension is checkpointed twice (tool results, then run end): answer each ticket once
  const tickets = (current.waiting?.tickets ?? []).filter((ticket) => !run.decided.has(ticket.toolCallId));
  if (tickets.length === 0) return;
  if (random() < 0.15) {
    await cluster.api.commands.cancelRun(run.runId, 'cancelled by the test');
    run.cancelled = true;
    return;
  }
  const decisions = tickets.map((ticket) => {
    const approve = random() < 0.6;
    run.decided.set(ticket.toolCallId, approve);
    return decisionFor(run.runId, ticket, approve);
  });
  const result = await cluster.api.commands.decide({ runId: run.runId }, decisions);
  expect(result.receipts.map((receipt) => receipt.status)).toEqual(decisions.map(() => 'accepted'));
}

/**
 * Submits `count` background runs (each on its own thread, 0–3 approval-gated calls and a plain
 * call run in parallel), then plays the human: each waiting run is either cancelled (15 %) or has
 * every ticket approved or denied at random, until all runs are done. Returns the planned runs.
 */
export async function playManyRuns(cluster: ServiceCluster, count: number, seed: number): Promise<Planned[]> {
  const random = seeded(seed);
  const runs: Planned[] = [];
  for (let index = 0; index < count; index += 1) {
    const approvals = Math.floor(random() * 4);
    const slow = random() < 0.2;
    const runId = `many-${index}-${randomUUID()}`;
    runs.push({
      runId,
      threadId: `t-${runId}`,
      approvals,
      slow,
      decided: new Map(),
      cancelled: false,
      handledVersion: -1,
    });
  }
  for (let start = 0; start < runs.length; start += 25) {
    await Promise.all(
      runs.slice(start, start + 25).map((run) =>
        cluster.api.submit({
          agentId: AGENT_ID,
          runId: run.runId,
          threadId: run.threadId,
          input: `${run.approvals > 0 ? `approve:${run.approvals} ` : ''}plain ${run.slow ? 'slow:300 ' : ''}#${run.runId}`,
          mode: 'background',
        }),
      ),
    );
  }
  // generous: 300 runs on three worker processes take ~15 s on a quiet machine, several times that under load
  const deadline = Date.now() + 200_000;
  const cancelledRunning = { landed: false };
  let open = runs;
  while (open.length > 0) {
    if (Date.now() > deadline) throw new Error(`${open.length} runs did not finish`);
    const records = await Promise.all(open.map((run) => record(cluster.stores, run.runId)));
    const next: Planned[] = [];
    for (const [index, current] of records.entries()) {
      const run = open[index] as Planned;
      if (current.status === 'done') continue;
      next.push(run);
      if (run.cancelledWhileRunning) continue;
      if (current.status === 'waiting' && current.version !== run.handledVersion) {
        await act(cluster, run, current, random);
      } else if (current.status === 'running' && !run.cancelledWhileRunning && run.decided.size === 0) {
        // now and then, cancel a run while a worker process executes it (surely each run with the
        // 300 ms tool seen running until one such cancel ended a run `cancelled` — a quick run, or a
        // cancel sent late on a loaded machine, may land after the run ended — so every machine
        // covers the case the checks below require)
        const chance = cancelledRunning.landed ? 0.05 : run.slow ? 1 : 0.05;
        if (random() < chance) {
          run.cancelledWhileRunning = cluster.api.commands.cancelRun(run.runId, 'stop it');
          // covered once a cancel really ended a running run (under load one may land after the end)
          run.cancelledWhileRunning.then(
            (record) => {
              if (record.termination?.type === 'cancelled') cancelledRunning.landed = true;
            },
            () => {},
          );
        }
      }
    }
    open = next;
    if (open.length > 0) await abortableDelay(25);
  }
  return runs;
}

/** Every run ended exactly once, as planned; every approved tool ran once; no ack repeated. */
export async function checkManyRuns(cluster: ServiceCluster, runs: readonly Planned[]): Promise<void> {
  for (const run of runs) {
    const stored = await record(cluster.stores, run.runId);
    expect(stored.status).toBe('done');
    const whileRunning = await run.cancelledWhileRunning;
    const termination = whileRunning?.termination?.type ?? (run.cancelled ? 'cancelled' : 'natural_end');
    expect(stored.termination?.type).toBe(termination);
    expect((await finishes(cluster.stores, run.runId)).done).toBe(1);
    const plain = await toolCounts(cluster, run.runId, 'plain_0_0');
    const slow = await toolCounts(cluster, run.runId, 'slow_0_0');
    if (whileRunning) {
      expect(plain.executions).toBeLessThanOrEqual(1);
      expect(slow.executions).toBeLessThanOrEqual(1);
    } else {
      expect(plain).toEqual({ executions: 1, completions: 1 });
      expect(slow).toEqual(run.slow ? { executions: 1, completions: 1 } : { executions: 0, completions: 0 });
    }
    for (let index = 0; index < run.approvals; index += 1) {
      const callId = `approve_me_0_${index}`;
      const expected = run.decided.get(callId) === true && !run.cancelled ? 1 : 0;
      expect(await toolCounts(cluster, run.runId, callId)).toEqual({
        executions: expected,
        completions: expected,
      });
    }
    const dispatches = await dispatchesOf(cluster.stores, run.threadId);
    expect(dispatches.map((dispatch) => dispatch.status).filter((status) => status !== 'acked')).toEqual([]);
  }
  expect(await acksAtMostOnce(cluster)).toBeGreaterThanOrEqual(runs.length);
  const decided = runs.flatMap((run) => [...run.decided.values()]);
  expect(runs.filter((run) => run.cancelled).length).toBeGreaterThan(0);
  const cancelledRunning = await Promise.all(runs.map((run) => run.cancelledWhileRunning));
  expect(cancelledRunning.filter((done) => done?.termination?.type === 'cancelled').length).toBeGreaterThan(
    0,
  );
  expect(decided.filter((approved) => approved).length).toBeGreaterThan(0);
  expect(decided.filter((approved) => !approved).length).toBeGreaterThan(0);
}
