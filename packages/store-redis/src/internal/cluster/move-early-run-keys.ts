import type { Redis } from 'ioredis';
import { toStoreError } from '../connection/redis-error';
import { runKeys } from '../keys/run-keys';

/** The keys of a run id's event log and control inbox under a shard prefix (the data, not the channel). */
function dataKeys(prefix: string, runId: string): string[] {
  const keys = runKeys(prefix, runId);
  return [
    keys.events,
    keys.eventMeta,
    keys.controlQueue,
    keys.controlEntries,
    keys.controlCalls,
    keys.controlKinds,
  ];
}

/** True when the run id has an event log or inbox under `prefix` (one EXISTS: the keys share a slot). */
export async function hasRunData(redis: Redis, prefix: string, runId: string): Promise<boolean> {
  try {
    return (await redis.exists(...dataKeys(prefix, runId))) > 0;
  } catch (error) {
    throw toStoreError(error);
  }
}

/**
 * Moves a run id's event log and inbox from the shard of its own id's hash (where they live while no
 * run record names its thread, see `run-locator.ts`) to its thread's shard, once the run's locator
 * entry names that thread: so what was written for the run id before its run was created is found
 * there, as on one node. Key by key (DUMP, RESTORE with its TTL, DEL: the shards are different slots),
 * so a write to the old place while the run is being created may be lost; a key already at the new
 * place is kept (it was written after the entry).
 */
export async function moveEarlyRunKeys(redis: Redis, from: string, to: string, runId: string): Promise<void> {
  const sources = dataKeys(from, runId);
  const targets = dataKeys(to, runId);
  try {
    for (let at = 0; at < sources.length; at += 1) {
      const source = sources[at] as string;
      const [dump, ttl] = await Promise.all([redis.dumpBuffer(source), redis.pttl(source)]);
      if (dump === null) continue;
      try {
        await redis.restore(targets[at] as string, Math.max(ttl, 0), dump);
      } catch (error) {
        if (!(error instanceof Error && error.message.includes('BUSYKEY'))) throw error;
      }
      await redis.del(source);
    }
  } catch (error) {
    throw toStoreError(error);
  }
}
