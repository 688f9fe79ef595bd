import { assertNever } from '../errors/assert-never';
import type { RunRecord } from './run-record';
import type { Thread } from './thread';

/**
 * The thread pointers after a checkpoint of `run` (ThreadRunStore TSDoc): running → active (and no
 * longer open), waiting → open (and no longer active), done → neither. A pointer at another run is
 * left alone; `created` changes nothing.
 */
export function pointersAfterCheckpoint(thread: Thread, run: RunRecord): Thread {
  const next: Thread = { ...thread };
  const clearIfThis = (key: 'activeRunId' | 'openRunId') => {
    if (next[key] === run.runId) delete next[key];
  };
  switch (run.status) {
    case 'created':
      break;
    case 'running':
      next.activeRunId = run.runId;
      clearIfThis('openRunId');
      break;
    case 'waiting':
      next.openRunId = run.runId;
      clearIfThis('activeRunId');
      break;
    case 'done':
      clearIfThis('activeRunId');
      clearIfThis('openRunId');
      break;
    default:
      assertNever(run.status, 'run status');
  }
  return next;
}
