import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createDemoServer } from './demo-server';

// Run by the stdio tests as a child process: node --import tsx test-support/stdio-server.ts
await createDemoServer().connect(new StdioServerTransport());
