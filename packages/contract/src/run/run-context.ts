import { z } from 'zod';

/**
 * What the caller of a run says about the request: caller identity, tenant, request metadata. Any
 * JSON object. The runtime stores it on the run record and shows it to every hook (`runContext`) and
 * tool, so approvals and audits can say who acted; a decision may carry its own (who decided).
 */
export const runContextSchema = z.record(z.string(), z.json());
export type RunContext = z.infer<typeof runContextSchema>;
