import { Redis } from 'ioredis';

/** Runs `use` on a plain connection to the node on `port` (one-off, closed afterwards). */
async function onNode<T>(port: number, use: (node: Redis) => Promise<T>): Promise<T> {
  const node = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
  node.on('error', () => undefined);
  try {
    await node.connect();
    return await use(node);
  } finally {
    node.disconnect();
  }
}

/** `INFO <section>` of the node on `port` as a field → value map. */
export function nodeInfo(port: number, section: string): Promise<Record<string, string>> {
  return onNode(port, async (node) => {
    const text = await node.info(section);
    return Object.fromEntries(
      text
        .split('\r\n')
        .filter((line) => line.includes(':'))
        .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)]),
    );
  });
}

/** The port of the master serving `slot`, as the node on `askPort` sees the slot map. */
export function slotOwnerPort(askPort: number, slot: number): Promise<number> {
  return onNode(askPort, async (node) => {
    const ranges = (await node.cluster('SLOTS')) as unknown as [number, number, [string, number]][];
    const range = ranges.find(([low, high]) => slot >= low && slot <= high);
    if (!range) throw new Error(`no node serves slot ${slot}`);
    return Number(range[2][1]);
  });
}

/** Waits until the replica on `port` has its replication link up (its first sync done). */
export async function waitForReplicaLink(port: number, withinMs = 30_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const info = await nodeInfo(port, 'replication');
    if (info.master_link_status === 'up') return;
    if (Date.now() > deadline)
      throw new Error(`the replica on ${port} did not sync: ${JSON.stringify(info)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
