declare module 'vitest' {
  export interface ProvidedContext {
    /** The websocket endpoint of the run's one headless Chromium (`launchChromium` connects to it). */
    chromiumWsEndpoint: string;
  }
}

/** Where Debian's `chromium` package puts the browser (`.ci/run` installs it when missing). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags every headless Chromium of the tests runs with. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
