import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';

/** A keep-alive node:http agent (lighter than fetch, so the server is what is measured). */
export const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * One useChat turn: POST of the AI SDK chat body (a new chat, one user message) to `path`, the UI
 * message stream read to its end. Resolves with the milliseconds it took; rejects unless the stream
 * carries the model's final answer and the `[DONE]` marker.
 */
export function chatTurn(base: URL, path: string): Promise<number> {
  const body = JSON.stringify({
    id: `chat-${randomUUID()}`,
    trigger: 'submit-message',
    messages: [
      { id: randomUUID(), role: 'user', parts: [{ type: 'text', text: 'What is the weather in Paris?' }] },
    ],
  });
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => {
          if (response.statusCode !== 200 || !text.includes('Paris.') || !text.includes('[DONE]'))
            reject(new Error(`${path}: ${response.statusCode} ${text.slice(0, 400)}`));
          else resolve(performance.now() - start);
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** `total` turns by `concurrency` clients; returns requests/s and every turn's latency (ms). */
export async function load(
  base: URL,
  path: string,
  concurrency: number,
  total: number,
): Promise<{ rps: number; latencies: number[] }> {
  const latencies: number[] = [];
  let started = 0;
  const client = async () => {
    while (started < total) {
      started += 1;
      try {
        latencies.push(await chatTurn(base, path));
      } catch (error) {
        // a keep-alive socket the server closed as it was reused: not a failed turn, send it again
        if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
        started -= 1;
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  return { rps: total / ((performance.now() - start) / 1000), latencies };
}
