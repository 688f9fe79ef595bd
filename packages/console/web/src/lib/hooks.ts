import { useCallback, useEffect, useState } from 'react';
import { api } from './api';

/** The current hash route: `#/runs/abc` → `['runs', 'abc']`. */
export function useRoute(): string[] {
  const read = () =>
    window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const update = () => setRoute(read());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}

/** Loads `path` (again when `reload()` is called or `path` changes). */
export function useApi<T>(path: string | null) {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    api<T>(path)
      .then((data) => live && setState({ data, loading: false }))
      .catch((error: Error) => live && setState({ error: error.message, loading: false }));
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((value) => value + 1), []);
  return { ...state, reload };
}

/** `12 s`, `4 min`, `2 h`: how long ago `at` was. */
export function ago(at: number, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} d`;
}

/** Re-renders every `ms` (for "waited for" clocks). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/** The console's own title, as the server set it (`mountConsole({ title })`). */
const CONSOLE_TITLE = document.title || 'Awaken console';

/** Sets the tab's title to `<title> · <console title>` while the view is shown. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${CONSOLE_TITLE}`;
  }, [title]);
}

/** `28 Nov 2026, 15:04:05`: an absolute time in the reader's locale. */
export function when(at: number): string {
  return new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}
