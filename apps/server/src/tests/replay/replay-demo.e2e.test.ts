import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ModelExecutor, parseRunRecording } from '@awaken/contract';
import { createAgentRuntime } from '@awaken/runtime';
import { createMemoryStores } from '@awaken/store-memory';
import { replayRun } from '@awaken/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, api, readSse, startAppProcess } from '../../../test-support/app-process';
import { DEMO_PROMPTS } from '../../demo/demo-model';
import { createDemoAgents } from '../../demo/demo-agents';

let app: AppProcess;
/** The recordings exported over HTTP, by prompt (the CLI test replays them as a folder). */
const recordings = new Map<string, string>();
const APP_DIR = fileURLToPath(new URL('../../..', import.meta.url));
beforeAll(async () => {
  app = await startAppProcess({ AWAKEN_DEMO_DELAY_MS: '1' });
});
afterAll(async () => {
  await app.stop();
});

/** A model that fails the test if anything calls it: a replay must take every turn from the recording. */
function forbiddenModel(): ModelExecutor & { calls: number } {
  const model = {
    modelId: 'forbidden',
    calls: 0,
    // biome-ignore lint/correctness/useYield: it throws before any part
    async *stream() {
      model.calls += 1;
      throw new Error('a replay called the model');
    },
  };
  return model;
}

const confirmTool = {
  name: 'confirm',
  description: 'Asks the user to confirm',
  parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
};

/** How each demo prompt is answered while it is recorded (one answer per ticket, in order). */
const SCENARIOS: Array<{ prompt: string; answers?: unknown[]; tools?: unknown[] }> = [
  { prompt: 'weather in Paris' },
  { prompt: 'delete /tmp/report.txt', answers: [{ approved: true }] },
  {
    prompt: 'delete /tmp/a.txt and /tmp/b.txt',
    answers: [{ approved: true }, { approved: false, reason: 'keep it' }],
  },
  { prompt: 'delete /etc/passwd' },
  { prompt: 'restart nginx', answers: [{ approved: true }] },
  { prompt: 'send invoice 42' },
  { prompt: 'pick a color', answers: [{ color: 'green' }] },
  { prompt: 'transfer me to billing' },
  {
    prompt: 'use the confirm tool with {"question":"ok?"}',
    answers: [{ confirmed: true }],
    tools: [confirmTool],
  },
  { prompt: 'count to 20' },
  { prompt: 'fail permanently' },
];

const EXECUTES_TOOLS = new Set([
  'weather in Paris',
  'delete /tmp/report.txt',
  'delete /tmp/a.txt and /tmp/b.txt',
  'restart nginx',
  'send invoice 42',
  'pick a color',
]);

/** Starts the prompt's run over HTTP, answers its tickets one at a time, returns its run id once done. */
async function recordRun(scenario: (typeof SCENARIOS)[number]): Promise<string> {
  const response = await fetch(`${app.url}/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      agentId: 'demo',
      input: scenario.prompt,
      ...(scenario.tools ? { tools: scenario.tools } : {}),
    }),
  });
  expect(response.status).toBe(200);
  const runId = response.headers.get('x-run-id') ?? '';
  const threadId = response.headers.get('x-thread-id') ?? '';
  let stream = await readSse(response);
  const answers = [...(scenario.answers ?? [])];
  while (stream.events.at(-1)?.status === 'waiting') {
    const active = await api(app.url, `/v1/threads/${threadId}/active-run`);
    const ticket = active.body.activeRun.tickets[0];
    expect(answers.length, `an answer for ${scenario.prompt}`).toBeGreaterThan(0);
    const decided = await api(app.url, `/v1/runs/${runId}/decision`, {
      body: { ticketId: ticket.ticketId, decisionId: `answer-${answers.length}`, result: answers.shift() },
    });
    expect(decided.status).toBe(200);
    const lastSeq = stream.ids.at(-1) ?? 0;
    stream = await readSse(await fetch(`${app.url}/v1/runs/${runId}/events?after=${lastSeq}`));
  }
  expect(stream.events.at(-1)).toMatchObject({ type: 'run_finish', status: 'done' });
  return runId;
}

describe('replaying recordings of the demo prompts', () => {
  it('covers every demo prompt but the sub-agent ones (a child run has its own log)', () => {
    const recorded = new Set(SCENARIOS.map((scenario) => scenario.prompt));
    const missing = DEMO_PROMPTS.map((entry) => entry.prompt).filter((prompt) => !recorded.has(prompt));
    expect(missing.every((prompt) => prompt.startsWith('ask the '))).toBe(true);
  });

  it.each(SCENARIOS)(
    '"$prompt": exported over HTTP, replayed offline with the same events and no model call',
    async (scenario) => {
      const runId = await recordRun(scenario);
      const response = await fetch(`${app.url}/v1/runs/${runId}/recording`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson');
      const text = await response.text();
      recordings.set(scenario.prompt, text);
      const recording = parseRunRecording(text);
      expect(recording.header).toMatchObject({
        runId,
        agentId: 'demo',
        input: [{ role: 'user', content: scenario.prompt }],
      });
      expect(recording.header.agentPin?.hash).toMatch(/^[0-9a-f]{64}$/);

      const model = forbiddenModel();
      const deleted: string[] = [];
      const sent: string[] = [];
      const agents = createDemoAgents({ model, deleted, sent });
      const demo = agents.find((agent) => agent.id === 'demo');
      if (!demo) throw new Error('no demo agent');
      const report = await replayRun(text, demo, {
        createRuntime: createAgentRuntime,
        createStores: createMemoryStores,
        agents,
      });
      expect(report.divergence?.diff).toBeUndefined();
      expect(report.ok).toBe(true);
      expect(report.replayedEvents).toHaveLength(recording.events.length);
      expect(model.calls).toBe(0);
      // tools answered from the recording: nothing was really deleted or sent again
      expect([...deleted, ...sent]).toEqual([]);
      // tools the demo executes (not a deny rule's block, a handoff, a client's declared tool)
      expect(report.recordedToolExecutions > 0).toBe(EXECUTES_TOOLS.has(scenario.prompt));
      expect(report.modelCalls).toBe(
        recording.events.filter((event) => event.type === 'inference_complete').length,
      );
    },
  );

  it('404 for the recording of an unknown run', async () => {
    const response = await api(app.url, '/v1/runs/no-such-run/recording');
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('the replay script runs the folder of recordings as a regression suite: 0 when all match, 1 with a diff when one diverges', () => {
    expect(recordings.size).toBe(SCENARIOS.length);
    const folder = mkdtempSync(join(tmpdir(), 'awaken-recordings-'));
    try {
      for (const [index, text] of [...recordings.values()].entries())
        writeFileSync(join(folder, `run-${index}.ndjson`), text);
      const replay = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', 'scripts/replay-recordings.ts', folder, ...args], {
          cwd: APP_DIR,
          encoding: 'utf8',
          timeout: 60_000,
        });
      const passed = replay();
      expect(passed.stdout).toContain(
        `${SCENARIOS.length} of ${SCENARIOS.length} recordings replayed without a divergence`,
      );
      expect(passed.status).toBe(0);

      // one changed tool result: replayed with the real tools, the weather differs from the recording
      const weather = recordings.get('weather in Paris') ?? '';
      const changed = weather.replace(/"celsius":(-?\d+)/g, '"celsius":99');
      expect(changed).not.toBe(weather);
      writeFileSync(join(folder, 'weather-changed.ndjson'), changed);
      writeFileSync(join(folder, 'not-a-recording.ndjson'), 'hello\n');
      const failed = replay('--tools', 'live');
      expect(failed.status).toBe(1);
      expect(failed.stdout).toMatch(/DIFF weather-changed\.ndjson/);
      expect(failed.stdout).toMatch(/result\.output\.celsius: 99 → -?\d+/);
      expect(failed.stdout).toMatch(
        /FAIL not-a-recording\.ndjson: invalid run recording: line 1 is not JSON/,
      );
      expect(failed.stdout).toContain(
        `${SCENARIOS.length} of ${SCENARIOS.length + 2} recordings replayed without a divergence`,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
