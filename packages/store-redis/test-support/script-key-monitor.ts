import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { keySlot } from '../src/internal/cluster/key-slot';
import { registeredScripts } from '../src/internal/lua/script-loading';

/**
 * A script source as it reaches a MONITOR listener: escaped as Redis prints it (`sdscatrepr`, byte
 * by byte), then unescaped by ioredis only for `\"`. So an `EVAL` seen there is recognised exactly.
 */
function asMonitored(source: string): string {
  let out = '';
  for (const byte of Buffer.from(source, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (char === '\\') out += '\\\\';
    else if (char === '"') out += '"';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (byte === 7) out += '\\a';
    else if (byte === 8) out += '\\b';
    else if (byte >= 32 && byte < 127) out += char;
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return out;
}

/** One script call as a master saw it: its KEYS and the keys of every command it ran. */
interface ScriptCall {
  sha: string;
  keys: string[];
  commands: string[][];
}

/** A key a script touched outside the slot of its KEYS[1]. */
export interface SlotViolation {
  sha: string;
  routeKey: string | undefined;
  command: string[];
  key: string;
}

export interface ScriptKeyReport {
  /** SHA1 of every script that ran (EVAL or EVALSHA) while the monitor was on. */
  ran: Set<string>;
  calls: number;
  commands: number;
  violations: SlotViolation[];
}

/**
 * Watches every script call on the given masters with MONITOR and checks, for each command a script
 * ran, that every key it names (as `COMMAND GETKEYS` finds them) hashes to the slot of the script's
 * KEYS[1]. MONITOR shows a script's call and then its commands (`lua` source); a server runs one
 * script at a time, so no other command comes between them. Tests only: MONITOR costs every command.
 */
export async function monitorScriptKeys(
  ports: readonly number[],
): Promise<{ stop(): Promise<ScriptKeyReport> }> {
  const shaOf = new Map(registeredScripts().map((script) => [asMonitored(script.source), script.sha]));
  const watched = await Promise.all(
    ports.map(async (port) => {
      const client = new Redis({ port, host: '127.0.0.1' });
      const monitor = await client.monitor();
      const calls: ScriptCall[] = [];
      const seen = new Set<string>();
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        const name = String(args[0]).toLowerCase();
        if (source === 'lua') {
          calls.at(-1)?.commands.push(args);
        } else if (name === 'eval' || name === 'evalsha') {
          const sha =
            name === 'evalsha'
              ? String(args[1])
              : (shaOf.get(String(args[1])) ??
                `unknown ${createHash('sha1').update(String(args[1])).digest('hex')}`);
          const count = Number(args[2]);
          calls.push({ sha, keys: args.slice(3, 3 + count), commands: [] });
        } else if (name === 'echo') {
          seen.add(String(args[1]));
        }
      });
      return { client, monitor, calls, seen };
    }),
  );
  return {
    async stop() {
      // a marker through each monitor: everything before it has been delivered
      const marker = `monitor-end-${Date.now()}`;
      for (const { client, seen } of watched) {
        await client.echo(marker);
        while (!seen.has(marker)) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const calls = watched.flatMap(({ calls }) => calls);
      const [asker] = watched;
      const report: ScriptKeyReport = { ran: new Set(), calls: calls.length, commands: 0, violations: [] };
      const keysOf = new Map<string, string[]>();
      const distinct = [
        ...new Set(calls.flatMap((call) => call.commands.map((command) => JSON.stringify(command)))),
      ];
      for (let start = 0; start < distinct.length; start += 1_000) {
        const pipeline = (asker as { client: Redis }).client.pipeline();
        const chunk = distinct.slice(start, start + 1_000);
        for (const text of chunk) pipeline.call('COMMAND', 'GETKEYS', ...(JSON.parse(text) as string[]));
        const replies = (await pipeline.exec()) ?? [];
        chunk.forEach((text, index) => {
          const [error, keys] = replies[index] ?? [null, []];
          const command = JSON.parse(text) as string[];
          // no key arguments (TIME, PUBLISH's channel): nothing to check; another refusal: take the
          // first argument for a key, as most commands have it
          if (error) keysOf.set(text, /no key arguments/i.test(error.message) ? [] : command.slice(1, 2));
          else keysOf.set(text, keys as string[]);
        });
      }
      for (const call of calls) {
        report.ran.add(call.sha);
        const route = call.keys[0];
        for (const command of call.commands) {
          report.commands += 1;
          for (const key of keysOf.get(JSON.stringify(command)) ?? []) {
            if (route === undefined || keySlot(key) !== keySlot(route))
              report.violations.push({ sha: call.sha, routeKey: route, command, key });
          }
        }
      }
      await Promise.all(
        watched.map(({ client, monitor }) => Promise.all([monitor.disconnect(), client.quit()])),
      );
      return report;
    },
  };
}
