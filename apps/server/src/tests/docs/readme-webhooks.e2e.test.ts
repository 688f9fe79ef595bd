import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type AppProcess, readSse, startAppProcess } from '../../../test-support/app-process';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The shell block after `<!-- name -->`. */
function block(name: string): string {
  const start = README.indexOf(`<!-- ${name} -->`);
  const match = /```sh\n([\s\S]*?)\n```/.exec(README.slice(start));
  if (start < 0 || !match?.[1]) throw new Error(`no block ${name} in the README`);
  return match[1];
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let receiver: ChildProcess | undefined;
let app: AppProcess | undefined;
afterAll(async () => {
  receiver?.kill('SIGKILL');
  await app?.stop();
});

describe("the reference server README's local webhook receiver, as written", () => {
  it('gets verified deliveries of a question from the server started with the AWAKEN_WEBHOOKS shown', async () => {
    const port = await freePort();
    const script = /^node -e '([\s\S]*)'$/.exec(block('webhook-receiver'))?.[1] ?? '';
    expect(script).toContain('listen(9000');
    let printed = '';
    receiver = spawn(process.execPath, ['-e', script.replace('listen(9000', `listen(${port}`)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    receiver.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });
    receiver.stderr?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
    });

    const commands = block('webhook-server');
    const webhooks = /AWAKEN_WEBHOOKS='([^']+)'/.exec(commands)?.[1] ?? '';
    const body = /-d '([^']+)'/.exec(commands)?.[1] ?? '';
    app = await startAppProcess({ AWAKEN_WEBHOOKS: webhooks.replace(':9000/', `:${port}/`) });
    const response = await fetch(`${app.url}/v1/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect((await readSse(response)).events.at(-1)).toMatchObject({ type: 'run_finish', status: 'waiting' });

    await vi.waitFor(
      () => {
        expect(printed).toMatch(/verified dlv_\w+ \{"id":"dlv_\w+","type":"approval\.requested"/);
        expect(printed).toMatch(/verified dlv_\w+ \{"id":"dlv_\w+","type":"run\.waiting"/);
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(printed).not.toContain('BAD SIGNATURE');
    expect(printed).toContain('"approver":"dana"');
  });
});
