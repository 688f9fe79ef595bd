import { ACK } from './ack';
import { CANCEL } from './cancel';
import { CLAIM } from './claim';
import { CLAIM_DISPATCH } from './claim-dispatch';
import { DEAD_LETTER } from './dead-letter';
import { ENQUEUE } from './enqueue';
import { ENQUEUE_AND_CLAIM } from './enqueue-and-claim';
import { EXTEND_LEASE } from './extend-lease';
import { INTERRUPT } from './interrupt';
import { MARK_REQUEUED } from './mark-requeued';
import { NACK } from './nack';
import { PURGE, PURGE_STATUS } from './purge';
import { RECLAIM } from './reclaim';
import { RECORD_DISPATCH_START } from './record-dispatch-start';
import { RECORD_RUN_RESULT } from './record-run-result';
import { SUPERSEDE_CLAIMED } from './supersede-claimed';

/** Every mailbox operation as one atomic Lua script, idempotent per request (one file per script). */
export const MAILBOX_SCRIPTS = {
  enqueue: ENQUEUE,
  enqueueAndClaim: ENQUEUE_AND_CLAIM,
  claim: CLAIM,
  claimDispatch: CLAIM_DISPATCH,
  ack: ACK,
  nack: NACK,
  deadLetter: DEAD_LETTER,
  extendLease: EXTEND_LEASE,
  recordDispatchStart: RECORD_DISPATCH_START,
  recordRunResult: RECORD_RUN_RESULT,
  cancel: CANCEL,
  markRequeued: MARK_REQUEUED,
  interrupt: INTERRUPT,
  supersedeClaimed: SUPERSEDE_CLAIMED,
  reclaim: RECLAIM,
  purge: PURGE,
  purgeStatus: PURGE_STATUS,
} as const;
