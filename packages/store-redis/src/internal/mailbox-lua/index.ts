import { defineMutatingScript } from '../idempotent-script';
import {
  ACK,
  DEAD_LETTER,
  EXTEND_LEASE,
  NACK,
  RECORD_DISPATCH_START,
  RECORD_RUN_RESULT,
} from './claimant-scripts';
import { CANCEL, CLAIM, CLAIM_DISPATCH, ENQUEUE, INTERRUPT, SUPERSEDE_CLAIMED } from './queue-scripts';
import { PURGE, RECLAIM } from './sweep-scripts';

/** Every mailbox operation as one atomic Lua script, idempotent per request. */
export const MAILBOX_SCRIPTS = {
  enqueue: defineMutatingScript('mailbox.enqueue', ENQUEUE),
  claim: defineMutatingScript('mailbox.claim', CLAIM),
  claimDispatch: defineMutatingScript('mailbox.claimDispatch', CLAIM_DISPATCH),
  ack: defineMutatingScript('mailbox.ack', ACK),
  nack: defineMutatingScript('mailbox.nack', NACK),
  deadLetter: defineMutatingScript('mailbox.deadLetter', DEAD_LETTER),
  extendLease: defineMutatingScript('mailbox.extendLease', EXTEND_LEASE),
  recordDispatchStart: defineMutatingScript('mailbox.recordDispatchStart', RECORD_DISPATCH_START),
  recordRunResult: defineMutatingScript('mailbox.recordRunResult', RECORD_RUN_RESULT),
  cancel: defineMutatingScript('mailbox.cancel', CANCEL),
  interrupt: defineMutatingScript('mailbox.interrupt', INTERRUPT),
  supersedeClaimed: defineMutatingScript('mailbox.supersedeClaimed', SUPERSEDE_CLAIMED),
  reclaim: defineMutatingScript('mailbox.reclaim', RECLAIM),
  purge: defineMutatingScript('mailbox.purge', PURGE),
} as const;
