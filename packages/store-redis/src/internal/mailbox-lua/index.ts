import { defineLuaScript } from '../lua-script';
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

/** Every mailbox operation as one atomic Lua script. */
export const MAILBOX_SCRIPTS = {
  enqueue: defineLuaScript(ENQUEUE),
  claim: defineLuaScript(CLAIM),
  claimDispatch: defineLuaScript(CLAIM_DISPATCH),
  ack: defineLuaScript(ACK),
  nack: defineLuaScript(NACK),
  deadLetter: defineLuaScript(DEAD_LETTER),
  extendLease: defineLuaScript(EXTEND_LEASE),
  recordDispatchStart: defineLuaScript(RECORD_DISPATCH_START),
  recordRunResult: defineLuaScript(RECORD_RUN_RESULT),
  cancel: defineLuaScript(CANCEL),
  interrupt: defineLuaScript(INTERRUPT),
  supersedeClaimed: defineLuaScript(SUPERSEDE_CLAIMED),
  reclaim: defineLuaScript(RECLAIM),
  purge: defineLuaScript(PURGE),
} as const;
