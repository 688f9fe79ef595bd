export { AwakenAgent } from './awaken-agent';
export type { AwakenAgentConfig } from './awaken-agent';
