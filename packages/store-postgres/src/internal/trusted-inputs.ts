import { jsonCopy, runEventLogInputs, threadRunStoreInputs, trustedStoreInputs } from '@awaken/contract';

/**
 * The runtime's trusted input path of the Postgres stores (see `trustedStoreInputs`): no parse; one
 * JSON copy at call time, since the rows are written after the transaction's first round trip.
 */
export const trustedThreadRunInputs = trustedStoreInputs(threadRunStoreInputs, jsonCopy);
export const trustedEventLogInputs = trustedStoreInputs(runEventLogInputs, jsonCopy);
