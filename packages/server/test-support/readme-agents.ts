import { type Plugin, defineTool } from '@awaken/contract';
import type { AgentDefinition } from '@awaken/runtime';
import { createScriptedModel } from '@awaken/testing';
import { z } from 'zod';

/** What the README's `./my-agents` stands for: an agent whose `delete_file` waits for approval. */
export const deleted: string[] = [];

const deleteFile = defineTool({
  name: 'delete_file',
  description: 'deletes a file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => {
    deleted.push(path);
    return { deleted: path };
  },
});

const approval: Plugin = {
  id: 'approval',
  hooks: {
    toolGate: (context) =>
      context.resume
        ? undefined
        : {
            type: 'suspend',
            suspension: { id: `ok_${context.call.id}`, action: 'approve', message: 'Delete?' },
          },
  },
};

const model = createScriptedModel((request) =>
  request.messages.at(-1)?.role === 'user'
    ? { toolCalls: [{ id: 'call_1', name: 'delete_file', arguments: { path: '/tmp/a' } }] }
    : { text: 'deleted /tmp/a' },
);

export const agents: AgentDefinition[] = [{ id: 'ops', model, tools: [deleteFile], plugins: [approval] }];
