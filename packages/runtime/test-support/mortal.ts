/** A process that can die: once `dead`, every store call it makes hangs forever. */
export interface MortalProcess {
  dead: boolean;
}

/**
 * Wraps a store so that its methods hang forever once `process.dead` is set, as a killed process's
 * calls would never complete; `after` is told the name of each method that completed.
 */
export function mortal<T extends object>(
  target: T,
  process: MortalProcess,
  after?: (method: string) => void,
): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (process.dead) return new Promise(() => {});
        const result = await value.apply(object, args);
        after?.(String(key));
        return result;
      };
    },
  });
}
