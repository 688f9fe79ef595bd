import { AwakenError } from '@awaken/contract';
import type { OnOpenRun } from '../../types';
import type { RuntimeServices } from '../session/run-session';

/** What the model reads for each call of a waiting run that new input superseded. */
export const SUPERSEDED_REASON = 'superseded by new input';

/**
 * Before a new run starts on a thread: when the thread has a waiting run (`openRunId`), its open
 * tool calls would otherwise be adopted by the new run (the new user message landing between a call
 * and its result). `refuse` (default) throws `conflict` naming the open run and writes nothing;
 * `cancel` cancels the waiting run first — its calls are cancelled and the model reads that new input
 * superseded them — so the new input follows a complete history.
 */
export async function settleOpenRun(
  services: RuntimeServices,
  threadId: string,
  policy: OnOpenRun,
  cancelRun: (runId: string, reason: string) => Promise<unknown>,
): Promise<void> {
  const thread = await services.store.getThread(threadId);
  const openRunId = thread?.openRunId;
  if (openRunId === undefined) return;
  const open = await services.store.getRun(openRunId);
  if (open?.status !== 'waiting') return;
  switch (policy) {
    case 'cancel':
      await cancelRun(openRunId, SUPERSEDED_REASON);
      return;
    case 'refuse':
      throw new AwakenError(
        'conflict',
        `thread ${threadId} has waiting run ${openRunId}: answer its tickets (decide / resumeRun), cancel it, or start the new run with onOpenRun: 'cancel'`,
        { details: { threadId, openRunId } },
      );
    default:
      throw new AwakenError(
        'validation_failed',
        `onOpenRun must be "refuse" or "cancel", got ${JSON.stringify(policy)}`,
        {
          details: { field: 'onOpenRun' },
        },
      );
  }
}
