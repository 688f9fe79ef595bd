import type { AgentEvent, RunEventLog } from '@awaken/contract';
import { type ServiceStores, createMailboxService } from '@awaken/server';
import { AGENT_ID, benchAgent } from './agent';

async function firstRunStart(eventLog: RunEventLog, runId: string, afterSeq: number): Promise<AgentEvent> {
  let seq = afterSeq;
  while (true) {
    for (const event of await eventLog.tail(runId, { afterSeq: seq, waitMs: 5_000 })) {
      if (event.type === 'run_start') return event;
      seq = event.seq;
    }
  }
}

/**
 * Decision → first resumed event (`run_start` of the resume, read from the event log), in ms, for
 * `samples` runs after `warmup` more. One service over `stores`: with `hot`, its hot cache keeps the
 * suspended run and the process that receives the decision claims the resume itself; without, the
 * cache is off and the resume goes through the queue to a worker (`waitForWork` wake-up) and loads
 * the run from the store.
 */
export async function decisionLatencies(input: {
  stores: ServiceStores;
  hot: boolean;
  samples: number;
  warmup: number;
}): Promise<number[]> {
  const service = createMailboxService({
    agents: [benchAgent()],
    stores: input.stores,
    concurrency: 4,
    hotCacheSize: input.hot ? 256 : 0,
  });
  await service.start();
  const latencies: number[] = [];
  for (let index = 0; index < input.warmup + input.samples; index += 1) {
    const run = await service.submit({ agentId: AGENT_ID, input: 'approve', mode: 'background' });
    const ticket = (await run.settled()).waiting?.tickets[0];
    if (!ticket) throw new Error('the run did not wait');
    // the suspending activation settles its dispatch right after the waiting event
    while (
      (await input.stores.mailbox.listDispatches(run.threadId, { status: ['claimed'] })).items.length > 0
    ) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const afterSeq = await input.stores.eventLog.lastSeq(run.runId);
    const resumed = firstRunStart(input.stores.eventLog, run.runId, afterSeq);
    const started = performance.now();
    await service.commands.decide(
      { runId: run.runId },
      {
        toolCallId: ticket.toolCallId,
        decisionId: `d-${run.runId}`,
        action: 'resume',
        updatedAt: Date.now(),
      },
    );
    await resumed;
    if (index >= input.warmup) latencies.push(performance.now() - started);
    if ((await run.done()).status !== 'done') throw new Error('the run did not finish');
  }
  const stats = service.stats();
  await service.stop();
  if (input.hot && stats.hotResumes < input.samples) throw new Error(`only ${stats.hotResumes} hot resumes`);
  return latencies;
}
