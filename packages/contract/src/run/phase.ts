import { z } from 'zod';

/**
 * The nine phases, in execution order. Plugins hook any of them; the runtime guarantees
 * this relative order within a step, RunStart once first and RunEnd once last on every exit path.
 */
export const PHASES = [
  'RunStart',
  'StepStart',
  'BeforeInference',
  'AfterInference',
  'ToolGate',
  'BeforeToolExecute',
  'AfterToolExecute',
  'StepEnd',
  'RunEnd',
] as const;

export const phaseSchema = z.enum(PHASES);
export type Phase = z.infer<typeof phaseSchema>;
