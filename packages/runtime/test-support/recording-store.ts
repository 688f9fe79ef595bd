import type { Checkpoint, ThreadRunStore } from '@awaken/contract';
import { createMemoryThreadRunStore } from '@awaken/store-memory';

/** A store that also keeps a copy of every committed checkpoint, in order. */
export interface RecordingStore extends ThreadRunStore {
  readonly checkpoints: Checkpoint[];
}

/** @awaken/store-memory's ThreadRunStore, recording checkpoints for assertions. */
export function createTestStore(): RecordingStore {
  const inner = createMemoryThreadRunStore();
  const checkpoints: Checkpoint[] = [];
  return Object.assign(Object.create(inner) as ThreadRunStore, {
    checkpoints,
    async commitCheckpoint(checkpoint: Checkpoint) {
      const stored = await inner.commitCheckpoint(checkpoint);
      checkpoints.push(structuredClone(checkpoint));
      return stored;
    },
  }) as RecordingStore;
}
