/**
 * The Awaken side of the same-model benchmark alone (memory thread/run store and event log), run
 * BENCH_RUNS times (default 60) per shape, for a CPU profile of the loop:
 *
 *   cd tooling/bench && node --import tsx --cpu-prof --cpu-prof-dir=/tmp/awaken-prof src/runtime-overhead-profile.ts
 *   npx tsx src/internal/profile-summary.ts /tmp/awaken-prof/<largest>.cpuprofile 20 [self|total]
 */
import { createAiSdkModelExecutor } from '@awaken/provider-ai-sdk';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryRunEventLog, createMemoryThreadRunStore } from '@awaken/store-memory';
import type { Scenario } from './same-model-script';
import { createScenarioModel } from './same-model-script';
import { SAME_MODEL_SCENARIOS, awakenNoop } from './scenario-workload';

const RUNS = Number(process.env.BENCH_RUNS ?? 60);

async function runOnce(scenario: Scenario): Promise<void> {
  const runtime = createAgentRuntime({
    agents: [
      {
        id: 'bench',
        tools: [awakenNoop],
        stopConditions: [{ type: 'max_rounds', rounds: scenario.steps + 1 }],
      },
    ],
    stores: { threadRuns: createMemoryThreadRunStore(), eventLog: createMemoryRunEventLog() },
    model: createAiSdkModelExecutor(createScenarioModel(scenario)),
  });
  const result = await runtime.runToCompletion({ agentId: 'bench', input: 'go' });
  if (result.status !== 'done') throw new Error(`awaken run ended ${JSON.stringify(result.termination)}`);
}

for (let run = 0; run < RUNS; run++) {
  for (const scenario of SAME_MODEL_SCENARIOS) await runOnce(scenario);
}
