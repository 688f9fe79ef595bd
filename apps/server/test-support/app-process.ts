import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The app directory: `--import tsx` resolves from the working directory. */
const APP_DIR = fileURLToPath(new URL('..', import.meta.url));

export interface AppProcess {
  url: string;
  child: ChildProcess;
  /** Every JSON log line so far. */
  logs: Array<Record<string, unknown>>;
  /** Raw stdout and stderr so far. */
  output(): string;
  exited: Promise<number | NodeJS.Signals | null>;
  /** SIGTERM (graceful), resolved with the exit code once the process is gone. */
  stop(): Promise<number | NodeJS.Signals | null>;
  kill(): Promise<void>;
}

/** Runs `src/main.ts` as `pnpm start` does, on a free loopback port, and waits until it listens. */
export async function startAppProcess(env: Record<string, string> = {}): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: APP_DIR,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: AppProcess['logs'] = [];
  let raw = '';
  let pending = '';
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(signal ?? code)),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        try {
          const entry = JSON.parse(line) as Record<string, unknown>;
          logs.push(entry);
          if (entry.msg === 'awaken server listening') resolve(String(entry.url));
        } catch {
          // not a log line
        }
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    void exited.then((how) => reject(new Error(`the server exited (${how}) before listening:\n${raw}`)));
  });
  return {
    url,
    child,
    logs,
    output: () => raw,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Reads an SSE response to its end (or until `stopAfter` events), returning ids and events. */
export async function readSse(
  response: Response,
  options: { stopAfter?: number } = {},
): Promise<{ ids: number[]; events: Array<Record<string, any>> }> {
  const reader = response.body?.getReader();
  if (!reader) throw new Error(`no body (status ${response.status})`);
  const decoder = new TextDecoder();
  const ids: number[] = [];
  const events: Array<Record<string, any>> = [];
  let buffer = '';
  for (;;) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    const frames = buffer.split('\n\n');
    buffer = frames.pop() ?? '';
    for (const frame of frames) {
      let id: number | undefined;
      for (const line of frame.split('\n')) {
        if (line.startsWith('id: ')) id = Number(line.slice(4));
        if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)));
      }
      if (id !== undefined) ids.push(id);
    }
    if (options.stopAfter !== undefined && ids.length >= options.stopAfter) {
      await reader.cancel();
      break;
    }
  }
  return { ids, events };
}

/** A JSON request to the server. */
export async function api(
  url: string,
  path: string,
  init: { method?: string; body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
