import { AwakenError, type RunContext, type RunRecord, runStarterOf } from '@awaken/contract';
import type { ServiceContext } from '../service/service-context';

function ignore(code: 'conflict' | 'dedupe_conflict') {
  return (error: unknown) => {
    if (!AwakenError.hasCode(error, code)) throw error;
  };
}

/**
 * Who the follow-up run is for: the first input's sender starts it, the senders of the others are
 * its askers (a four-eyes ticket refuses every one of them).
 */
function followUpContext(inputs: ReadonlyArray<{ context?: RunContext }>): RunContext | undefined {
  const [first] = inputs;
  const starter = first?.context === undefined ? undefined : runStarterOf({ context: first.context });
  const others = inputs.flatMap((input) => {
    const sender = input.context === undefined ? undefined : runStarterOf({ context: input.context });
    return sender === undefined || sender === starter ? [] : [sender];
  });
  const askers = [...new Set(others)];
  if (first?.context === undefined && askers.length === 0) return undefined;
  return { ...(first?.context ?? {}), ...(askers.length === 0 ? {} : { askers }) };
}

/**
 * Input injected into a run that ended before it read it (a steer racing the run's last step)
 * becomes the thread's next run, so injected input is never dropped. Runs under the ended run's
 * claim; the follow-up's id derives from the input, so a repeat after a crash creates nothing new.
 * Its starter is the first input's sender, never the ended run's (see {@link followUpContext}).
 */
export async function adoptLeftoverInput(context: ServiceContext, record: RunRecord): Promise<void> {
  const { inbox, mailbox } = context.stores;
  const pending = (await inbox.peek(record.runId)).flatMap((control) =>
    control.kind === 'input' ? [control] : [],
  );
  const [first] = pending;
  if (!first) return;
  const runId = `${record.runId}:after:${first.id}`;
  const askedBy = followUpContext(pending);
  await context.runtime
    .createRun({
      agentId: record.agentId,
      threadId: record.threadId,
      runId,
      input: pending.flatMap((control) => control.messages),
      ...(askedBy === undefined ? {} : { context: askedBy }),
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
