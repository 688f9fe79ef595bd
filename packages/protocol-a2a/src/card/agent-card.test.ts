import { describe, expect, it } from 'vitest';
import { agentCard } from './agent-card';

const input = {
  name: 'demo',
  description: 'The demo agent',
  url: 'http://127.0.0.1:3000/v1/a2a',
  skills: [{ id: 'get_weather', name: 'get_weather', description: 'Weather', tags: ['demo'] }],
};

describe('agentCard', () => {
  it('v1.0: the JSON-RPC interface with protocol 1.0, streaming on, bearer in ProtoJSON', () => {
    const card = agentCard(input, '1.0');
    expect(card).toMatchObject({
      supportedInterfaces: [{ url: input.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true, pushNotifications: false },
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: {} } }],
      skills: input.skills,
    });
    expect(card).not.toHaveProperty('url');
  });

  it('v0.3: url, preferredTransport and protocolVersion 0.3; no bearer when the API is open', () => {
    const card = agentCard({ ...input, bearer: false }, '0.3');
    expect(card).toMatchObject({ protocolVersion: '0.3', url: input.url, preferredTransport: 'JSONRPC' });
    expect(card).not.toHaveProperty('supportedInterfaces');
    expect(card).not.toHaveProperty('securitySchemes');
  });
});
