import type { A2aVersion } from '../wire/a2a-types';
import {
  APPROVAL_ANSWER_SCHEMA,
  APPROVAL_REQUEST_TYPE,
  INDETERMINATE_REQUEST_TYPE,
  INPUT_REQUEST_TYPE,
} from '../encode/input-required-message';

/** One skill of an agent card. */
export interface A2aSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples?: string[];
}

/** What an agent card says about one agent. */
export interface AgentCardInput {
  name: string;
  description: string;
  /** The agent's version. Default `0.1.0`. */
  version?: string;
  /** The JSON-RPC endpoint clients post to. */
  url: string;
  skills: A2aSkill[];
  /** Whether requests need `Authorization: Bearer <token>` (listed in `securitySchemes`). Default true. */
  bearer?: boolean;
  documentationUrl?: string;
}

/** The URI of the approval convention, as the card's `capabilities.extensions` lists it. */
export const APPROVALS_EXTENSION_URI =
  'https://github.com/awakenworks/awaken-ts/tree/main/packages/protocol-a2a#approvals';

const APPROVALS_EXTENSION = {
  uri: APPROVALS_EXTENSION_URI,
  description:
    `Human-in-the-loop on the same task: an input-required status carries a text part and one data part per open ticket, ` +
    `{type:"${APPROVAL_REQUEST_TYPE}"|"${INDETERMINATE_REQUEST_TYPE}"|"${INPUT_REQUEST_TYPE}", approvalId, toolCallId, toolName, input, responseSchema, outcomes?, expiresAt?}. ` +
    'Continue the same taskId/contextId with one data part per answer: {approved, approvalId, toolCallId?, reason?, editedArguments?}, ' +
    '{approvalId, toolCallId?, outcome: "retry"|"result"|"fail", result?, reason?} or {approvalId, toolCallId?, output}. Unanswered tickets keep the task input-required; free text is not read as a decision. ' +
    'Each tool result is an artifact tool-result-<toolCallId>.',
  required: false,
  params: { approvalAnswerSchema: APPROVAL_ANSWER_SCHEMA },
};

const MODES = ['text/plain', 'application/json'];

/**
 * The agent card in the shape a client of `version` reads: v1.0 (`supportedInterfaces` with the
 * JSON-RPC binding and `protocolVersion: "1.0"`, ProtoJSON security) or v0.3 (`url`,
 * `preferredTransport`, `protocolVersion: "0.3"`). Both say `capabilities.streaming: true` (without
 * it SDK clients silently stop streaming), no push notifications, and document the approval
 * convention as an extension.
 */
export function agentCard(input: AgentCardInput, version: A2aVersion): Record<string, unknown> {
  const bearer = input.bearer ?? true;
  const capabilities = { streaming: true, pushNotifications: false, extensions: [APPROVALS_EXTENSION] };
  const common = {
    name: input.name,
    description: input.description,
    version: input.version ?? '0.1.0',
    capabilities,
    defaultInputModes: MODES,
    defaultOutputModes: MODES,
    skills: input.skills,
    ...(input.documentationUrl ? { documentationUrl: input.documentationUrl } : {}),
  };
  if (version === '1.0') {
    return {
      ...common,
      supportedInterfaces: [{ url: input.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      ...(bearer
        ? {
            securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
            securityRequirements: [{ schemes: { bearer: {} } }],
          }
        : {}),
    };
  }
  return {
    protocolVersion: '0.3',
    ...common,
    url: input.url,
    preferredTransport: 'JSONRPC',
    ...(bearer
      ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: [] }] }
      : {}),
  };
}
