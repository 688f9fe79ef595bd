import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { ModelExecutor } from '@awaken/contract';
import { createAiSdkModelExecutor } from '@awaken/provider-ai-sdk';
import type { AppConfig } from './config';
import { createDemoModel } from './demo/demo-model';

/** The model the demo agent uses: OpenAI or Anthropic when a key is set, else the scripted demo model. */
export function createModel(config: AppConfig): { model: ModelExecutor; label: string } {
  if (config.OPENAI_API_KEY) {
    const id = config.AWAKEN_MODEL ?? 'gpt-4o-mini';
    const openai = createOpenAI({ apiKey: config.OPENAI_API_KEY });
    return { model: createAiSdkModelExecutor(openai(id)), label: `openai:${id}` };
  }
  if (config.ANTHROPIC_API_KEY) {
    const id = config.AWAKEN_MODEL ?? 'claude-sonnet-4-5';
    const anthropic = createAnthropic({ apiKey: config.ANTHROPIC_API_KEY });
    return { model: createAiSdkModelExecutor(anthropic(id)), label: `anthropic:${id}` };
  }
  return {
    model: createDemoModel({ delayMs: config.AWAKEN_DEMO_DELAY_MS }),
    label: 'demo (scripted, no key)',
  };
}
