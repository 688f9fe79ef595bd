export { connectMcpServer } from './connect-mcp-server';
export type { McpConnection, McpServerOptions, McpTransportOptions } from './connect-mcp-server';
export { createMcpTools } from './create-mcp-tools';
export type { McpClientLike, McpToolInfo, McpToolsOptions } from './create-mcp-tools';
