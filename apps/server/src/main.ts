import { pino } from 'pino';
import { ConfigError, loadConfig } from './config';
import { startAppServer } from './create-app-server';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const logger = pino({ level: config.LOG_LEVEL, base: { service: 'awaken-server' } });
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
  process.stderr.write(
    `awaken server failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
