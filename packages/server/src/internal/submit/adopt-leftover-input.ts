import { AwakenError, type RunRecord } from '@awaken/contract';
import type { ServiceContext } from '../service/service-context';

function ignore(code: 'conflict' | 'dedupe_conflict') {
  return (error: unknown) => {
    if (!AwakenError.hasCode(error, code)) throw error;
  };
}

/**
 * Input injected into a run that ended before it read it (a steer racing the run's last step)
 * becomes the thread's next run, so injected input is never dropped. Runs under the ended run's
 * claim; the follow-up's id derives from the input, so a repeat after a crash creates nothing new.
 */
export async function adoptLeftoverInput(context: ServiceContext, record: RunRecord): Promise<void> {
  const { inbox, mailbox } = context.stores;
  const pending = (await inbox.peek(record.runId)).flatMap((control) =>
    control.kind === 'input' ? [control] : [],
  );
  const [first] = pending;
  if (!first) return;
  const runId = `${record.runId}:after:${first.id}`;
  await context.runtime
    .createRun({
      agentId: record.agentId,
      threadId: record.threadId,
      runId,
      input: pending.flatMap((control) => control.messages),
    })
    .catch(ignore('conflict'));
  await mailbox
    .enqueue({
      threadId: record.threadId,
      runId,
      dedupeKey: `after:${runId}`,
      maxAttempts: context.config.maxAttempts,
    })
    .catch(ignore('dedupe_conflict'));
  await inbox.remove(
    record.runId,
    pending.map((control) => control.id),
  );
}
