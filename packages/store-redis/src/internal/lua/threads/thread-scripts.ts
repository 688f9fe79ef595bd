import { ACQUIRE_RUN } from './acquire-run';
import { ACQUIRE_WITH_FENCE } from './acquire-with-fence';
import { APPEND_MESSAGES } from './append-messages';
import { COMMIT_CHECKPOINT } from './commit-checkpoint';
import { CREATE_BRANCH } from './create-branch';
import { CREATE_RUN } from './create-run';
import { CREATE_RUN_WITH_LEASE } from './create-run-with-lease';
import { CREATE_THREAD } from './create-thread';
import { DELETE_THREAD } from './delete-thread';
import { RELEASE_RUN } from './release-run';
import { RENEW_RUN } from './renew-run';
import { UPDATE_METADATA } from './update-metadata';

/** Every thread/run write as one atomic Lua script, idempotent per request (one file per script). */
export const THREAD_SCRIPTS = {
  acquireRun: ACQUIRE_RUN,
  acquireWithFence: ACQUIRE_WITH_FENCE,
  renewRun: RENEW_RUN,
  releaseRun: RELEASE_RUN,
  createThread: CREATE_THREAD,
  updateMetadata: UPDATE_METADATA,
  deleteThread: DELETE_THREAD,
  appendMessages: APPEND_MESSAGES,
  createRun: CREATE_RUN,
  createRunWithLease: CREATE_RUN_WITH_LEASE,
  commitCheckpoint: COMMIT_CHECKPOINT,
  createBranch: CREATE_BRANCH,
} as const;
