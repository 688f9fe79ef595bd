import type { MailboxStore } from '@awaken/contract';
import type { Counters } from './counters';

/** The mailbox with every successful ack counted (`ack:<dispatchId>`), so tests see none is acked twice. */
export function countingMailbox(mailbox: MailboxStore, counters: Counters): MailboxStore {
  return new Proxy(mailbox, {
    get(target, property, receiver) {
      if (property === 'ack') {
        return async (proof: Parameters<MailboxStore['ack']>[0]) => {
          const acked = await target.ack(proof);
          await counters.incr(`ack:${proof.dispatchId}`);
          return acked;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
