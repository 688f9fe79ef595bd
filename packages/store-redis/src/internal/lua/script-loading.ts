import { Command, type Redis } from 'ioredis';
import { holdWritesForTick } from '../connection/tick-writes';

/** A script as sent to Redis: its source and the SHA1 that EVALSHA names it by. */
export interface ScriptText {
  readonly source: string;
  readonly sha: string;
}

/**
 * Makes sure a connection has loaded a script before it runs it by SHA1, so that calls take effect
 * in the order they were made whatever the server has cached (a fresh or restarted server, a
 * failover, `SCRIPT FLUSH`).
 *
 * Redis runs one connection's commands in the order they were written. A call is written as
 * `EVAL <source>` (which loads the script and cannot miss) until its script was written once on that
 * connection (socket), as `EVAL` or `SCRIPT LOAD`, and as `EVALSHA` afterwards. The choice is made
 * when ioredis writes the command to a socket (`toWritable`), not when the call is made: a call made
 * while disconnected waits in ioredis's offline queue, and a call whose reply was lost is re-sent,
 * both on a later connection, maybe to a restarted server with an empty cache. ioredis's own
 * `defineCommand` scripts work the same way; the store builds its commands from the client's own
 * `Command` class, so a client of any ioredis copy or major version is used as it is.
 *
 * The first script written on a socket also sends `SCRIPT LOAD` for every script of this package,
 * so that a connection soon knows them all: a cache flushed under a live connection (`SCRIPT FLUSH`)
 * then misses all of them, every call in flight answers NOSCRIPT, and the store re-sends them in
 * reply order, which is call order. (What remains: a call made in a later tick, between two of those
 * NOSCRIPT replies, can run before the second re-send, and so can a call whose script another client
 * reloaded in that moment; so do not flush the script cache of a server in use.) `SCRIPT LOAD` also
 * keeps the scripts from being evicted: Redis 7.4 and later evicts, least recently used first, only
 * the scripts loaded by `EVAL`.
 *
 * Rejected alternatives: `EVALSHA` with an `EVAL` retry on NOSCRIPT (the retry runs after the calls
 * sent behind it, and one of those whose script was cached has already run); `SCRIPT LOAD` on the
 * client's `ready` event (ioredis emits it after it has re-sent and flushed the queued commands);
 * Redis functions (Redis 7 only, and a fresh server lacks the library just the same).
 *
 * Script calls are written with `sendCommand`, so they bypass ioredis's `enableAutoPipelining`,
 * which delays other commands to the next tick (leave it off on a client given to the store).
 */

/** Which of our scripts (by SHA1) each socket has been sent, as `EVAL` or `SCRIPT LOAD`. */
const loadedOn = new WeakMap<object, Set<string>>();

/** Every script of this package, loaded on each new connection. */
const everyScript: ScriptText[] = [];

/** Every script the package defines (a test checks each one's keys on a cluster). */
export function registeredScripts(): readonly ScriptText[] {
  return everyScript;
}

/** Adds a script to those loaded on each new connection (every script the package defines). */
export function registerScript(script: ScriptText): void {
  everyScript.push(script);
}

/** True for the reply of an `EVALSHA` whose script the server has not cached. */
export function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.includes('NOSCRIPT');
}

type CommandClass = typeof Command;

interface ScriptCommands {
  /** A script call: `EVAL` or `EVALSHA`, chosen per socket when written. */
  call: new (
    redis: Redis,
    script: ScriptText,
    args: (string | number)[],
  ) => Command;
  /** `SCRIPT LOAD` of one script, which marks it loaded on the socket it is written to. */
  load: new (
    script: ScriptText,
  ) => Command;
}

const commandsByClient = new WeakMap<Redis, ScriptCommands>();
const commandsByBase = new WeakMap<CommandClass, ScriptCommands>();

/** Sends a call of `script` (args: numkeys, keys..., argv...) on `redis`; resolves with its reply. */
export function sendScript(redis: Redis, script: ScriptText, args: (string | number)[]): Promise<unknown> {
  const { call } = scriptCommands(redis);
  holdWritesForTick(redis);
  return redis.sendCommand(new call(redis, script, args)) as Promise<unknown>;
}

/** The command classes for this client, derived from its own ioredis copy's `Command`. */
function scriptCommands(redis: Redis): ScriptCommands {
  let commands = commandsByClient.get(redis);
  if (!commands) {
    const Base = commandClassOf(redis);
    commands = commandsByBase.get(Base) ?? defineScriptCommands(Base);
    commandsByBase.set(Base, commands);
    commandsByClient.set(redis, commands);
  }
  return commands;
}

/**
 * The `Command` class of the client's own ioredis copy (an ioredis 6 client needs its own: it calls
 * methods that ioredis 5's lacks). Not `redis.constructor.Command`: ioredis mixes EventEmitter into
 * its client class, `constructor` included. The client's `call` builds a command of that class and
 * hands it to `this.sendCommand`; run with a `this` whose `sendCommand` returns it, it yields the
 * command unsent.
 */
function commandClassOf(redis: Redis): CommandClass {
  const probe = { options: {}, sendCommand: (command: unknown) => command };
  try {
    const command: unknown = (redis.call as (this: unknown, name: string) => unknown).call(probe, 'ping');
    if (command instanceof Object && typeof (command as Command).toWritable === 'function') {
      return command.constructor as CommandClass;
    }
  } catch {
    // not an ioredis client we know: use this package's copy
  }
  return Command;
}

/** Marks the scripts written on a socket as unknown again (its server answered NOSCRIPT: flushed). */
function forget(socket: object): void {
  loadedOn.delete(socket);
}

function loadEveryScript(redis: Redis): void {
  const { load } = scriptCommands(redis);
  for (const script of everyScript) {
    // A failure here costs nothing: a script not marked loaded is written as EVAL.
    (redis.sendCommand(new load(script)) as Promise<unknown>).catch(() => undefined);
  }
}

function defineScriptCommands(Base: CommandClass): ScriptCommands {
  class ScriptCall extends Base {
    readonly #redis: Redis;
    readonly #script: ScriptText;

    constructor(redis: Redis, script: ScriptText, args: (string | number)[]) {
      const options = { replyEncoding: 'utf8' as const, keyPrefix: redis.options.keyPrefix };
      super('evalsha', [script.sha, ...args], options);
      this.#redis = redis;
      this.#script = script;
    }

    override toWritable(socket: object): string | Buffer {
      let loaded = loadedOn.get(socket);
      if (!loaded) {
        loaded = new Set();
        loadedOn.set(socket, loaded);
        const redis = this.#redis;
        queueMicrotask(() => loadEveryScript(redis));
      }
      if (loaded.has(this.#script.sha)) {
        this.name = 'evalsha';
        this.args[0] = this.#script.sha;
      } else {
        loaded.add(this.#script.sha);
        this.name = 'eval';
        this.args[0] = this.#script.source;
      }
      const reject = this.reject;
      this.reject = (error: Error) => {
        if (isNoScript(error)) forget(socket);
        reject.call(this, error);
      };
      return super.toWritable(socket);
    }
  }

  class ScriptLoad extends Base {
    readonly #sha: string;

    constructor(script: ScriptText) {
      super('script', ['load', script.source], { replyEncoding: 'utf8' });
      this.#sha = script.sha;
    }

    override toWritable(socket: object): string | Buffer {
      const sha = this.#sha;
      let loaded = loadedOn.get(socket);
      if (!loaded) {
        loaded = new Set();
        loadedOn.set(socket, loaded);
      }
      loaded.add(sha);
      const reject = this.reject;
      this.reject = (error: Error) => {
        loadedOn.get(socket)?.delete(sha);
        reject.call(this, error);
      };
      return super.toWritable(socket);
    }
  }

  return { call: ScriptCall, load: ScriptLoad };
}
