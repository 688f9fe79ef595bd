export { abortableSleep } from './abortable-sleep';
export { createDeferred } from './deferred';
export type { Deferred } from './deferred';
export { createControllableTool } from './controllable-tool';
export type { ControllableTool } from './controllable-tool';
export { freePort } from './server-process';
export type { ServerProcessHandle, ServerProcessOptions } from './server-process';
export { startRedisServer } from './redis-server';
export { startClusterNode, startRedisCluster, waitForClusterOk } from './redis-cluster';
export type { RedisClusterHandle, StartRedisClusterOptions } from './redis-cluster';
export { postgresBinDir, startPostgresServer } from './postgres-server';
export type { PostgresServerHandle, StartPostgresOptions } from './postgres-server';
export type { RedisServerHandle, StartRedisOptions } from './redis-server';
export { countExecutions, echoTool, failingTool, pendingTool, slowTool } from './sample-tools';
export { createScriptedModel } from './scripted-model';
export type { ScriptedModel, ScriptedTurn, ScriptedTurnSource } from './scripted-model';
export { createManualClock } from './manual-clock';
export type { ManualClock } from './manual-clock';
export {
  REPLAY_IGNORED_FIELDS,
  describeEvent,
  firstDivergence,
  normalizeEvent,
} from './replay/compare-events';
export type { ReplayDivergence } from './replay/compare-events';
export { createRecordedModel, recordedTurns } from './replay/recorded-model';
export type { RecordedModel, RecordedTurn } from './replay/recorded-model';
export { replayRun } from './replay/replay-run';
export type {
  ReplayOptions,
  ReplayReport,
  ReplayRunHandle,
  ReplayRuntime,
  ReplayableAgent,
} from './replay/replay-run';
export { formatReplaySuite, replaySuitePassed, runReplaySuite } from './replay/replay-suite';
export type { ReplaySuiteEntry, ReplaySuiteOptions } from './replay/replay-suite';
