// Fails the test command at once, with a one-line install hint, when redis-server is missing:
// the integration tests start a real redis-server on a free loopback port.
import { spawnSync } from 'node:child_process';

const found = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
if (found.error || found.status !== 0) {
  console.error(
    'redis-server is not on the PATH; the tests need it: `sudo apt-get install -y redis-server` (Debian/Ubuntu) or `brew install redis` (macOS).',
  );
  process.exit(1);
}
