/** The demo agent's sub-agents (`agentTool`): each deletes the files it is asked to delete. */
export const DEMO_SUB_AGENTS = ['janitor', 'archivist'] as const;
