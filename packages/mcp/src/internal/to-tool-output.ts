import { type ToolResult, toolFailure } from '@awaken/contract';

/** The parts of an MCP `tools/call` result this package reads. */
export interface McpCallResult {
  content?: ReadonlyArray<{ type: string; text?: string } & Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** The result field of protocol versions before 2024-11-05. */
  toolResult?: unknown;
}

function textOf(content: McpCallResult['content']): string {
  return (content ?? [])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/**
 * What the model gets back from an MCP tool call: a failed result with the server's text when the
 * server flagged an error; otherwise the structured content when given, the text when every part is
 * text, or the content parts as they are (images, resources).
 */
export function toToolOutput(result: McpCallResult): ToolResult | unknown {
  if (result.isError === true) {
    return toolFailure(textOf(result.content) || 'the MCP tool reported an error without a message');
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (result.content === undefined && 'toolResult' in result) return result.toolResult;
  const content = result.content ?? [];
  if (content.every((part) => part.type === 'text')) return textOf(content);
  return content;
}
