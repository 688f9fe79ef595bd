import { pino } from 'pino';
import { ConfigError, loadConfig } from './config';
import { startAppServer } from './create-app-server';

/** Until the configuration is read: every line this process writes is JSON, this one's too. */
let logger = pino({ base: { service: 'awaken-server' } });

/**
 * What nothing else caught ends the process, as Node would — but as one JSON line, the stack inside
 * it, instead of a raw stack on stderr that no log pipeline can parse.
 */
function exitOn(kind: 'uncaughtException' | 'unhandledRejection'): void {
  process.on(kind, (error: unknown) => {
    logger.fatal({ err: error }, kind === 'uncaughtException' ? 'uncaught exception' : 'unhandled rejection');
    process.exit(1);
  });
}
exitOn('uncaughtException');
exitOn('unhandledRejection');

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.fatal(error.message);
    process.exit(1);
  }
  logger = pino({ level: config.LOG_LEVEL, base: { service: 'awaken-server' } });
  const server = await startAppServer(config, logger);
  if (process.stderr.isTTY) {
    process.stderr.write(
      `\nAwaken server on ${server.url}  (API reference: ${server.url}/reference)\n` +
        `Try: curl -N ${server.url}/v1/runs -H 'content-type: application/json' -d '{"agentId":"demo","input":"delete /tmp/report.txt"}'\n\n`,
    );
  }
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(130);
    }
    logger.info({ signal }, 'signal received');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, 'awaken server failed to start');
  process.exit(1);
});
