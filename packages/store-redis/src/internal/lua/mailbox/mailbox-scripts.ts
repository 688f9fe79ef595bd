import { defineMutatingScript } from '../idempotent-script';
import {
  ACK,
  DEAD_LETTER,
  EXTEND_LEASE,
  NACK,
  RECORD_DISPATCH_START,
  RECORD_RUN_RESULT,
} from './claimant-writes';
import { CANCEL, CLAIM, CLAIM_DISPATCH, INTERRUPT, MARK_REQUEUED, SUPERSEDE_CLAIMED } from './claim';
import { ENQUEUE, ENQUEUE_AND_CLAIM } from './enqueue';
import { mailboxScript } from './mailbox-prelude';
import { PURGE, RECLAIM } from './reclaim';

/** Every mailbox operation as one atomic Lua script, idempotent per request. */
export const MAILBOX_SCRIPTS = {
  enqueue: defineMutatingScript('mailbox.enqueue', mailboxScript(ENQUEUE)),
  enqueueAndClaim: defineMutatingScript('mailbox.enqueueAndClaim', mailboxScript(ENQUEUE_AND_CLAIM)),
  claim: defineMutatingScript('mailbox.claim', mailboxScript(CLAIM)),
  claimDispatch: defineMutatingScript('mailbox.claimDispatch', mailboxScript(CLAIM_DISPATCH)),
  ack: defineMutatingScript('mailbox.ack', mailboxScript(ACK)),
  nack: defineMutatingScript('mailbox.nack', mailboxScript(NACK)),
  deadLetter: defineMutatingScript('mailbox.deadLetter', mailboxScript(DEAD_LETTER)),
  extendLease: defineMutatingScript('mailbox.extendLease', mailboxScript(EXTEND_LEASE)),
  recordDispatchStart: defineMutatingScript(
    'mailbox.recordDispatchStart',
    mailboxScript(RECORD_DISPATCH_START),
  ),
  recordRunResult: defineMutatingScript('mailbox.recordRunResult', mailboxScript(RECORD_RUN_RESULT)),
  cancel: defineMutatingScript('mailbox.cancel', mailboxScript(CANCEL)),
  markRequeued: defineMutatingScript('mailbox.markRequeued', mailboxScript(MARK_REQUEUED)),
  interrupt: defineMutatingScript('mailbox.interrupt', mailboxScript(INTERRUPT)),
  supersedeClaimed: defineMutatingScript('mailbox.supersedeClaimed', mailboxScript(SUPERSEDE_CLAIMED)),
  reclaim: defineMutatingScript('mailbox.reclaim', mailboxScript(RECLAIM)),
  purge: defineMutatingScript('mailbox.purge', mailboxScript(PURGE)),
} as const;
