import { ACQUIRE_RUN } from './acquire-run';
import { RENEW_RUN } from './renew-run';
import { RELEASE_RUN } from './release-run';
import { CREATE_THREAD } from './create-thread';
import { UPDATE_METADATA } from './update-metadata';
import { DELETE_THREAD } from './delete-thread';
import { APPEND_MESSAGES } from './append-messages';
import { CREATE_RUN } from './create-run';
import { COMMIT_CHECKPOINT } from './commit-checkpoint';

/** Every thread/run write as one atomic Lua script, idempotent per request (one file per script). */
export const THREAD_SCRIPTS = {
  acquireRun: ACQUIRE_RUN,
  renewRun: RENEW_RUN,
  releaseRun: RELEASE_RUN,
  createThread: CREATE_THREAD,
  updateMetadata: UPDATE_METADATA,
  deleteThread: DELETE_THREAD,
  appendMessages: APPEND_MESSAGES,
  createRun: CREATE_RUN,
  commitCheckpoint: COMMIT_CHECKPOINT,
} as const;
