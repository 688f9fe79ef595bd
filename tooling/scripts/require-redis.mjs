// Fails the test command at once, with a one-line install hint per missing service: the integration
// tests start a real redis-server and a real PostgreSQL on free loopback ports, and the browser tests
// drive a real Chromium. (.ci/run installs all three when they are missing.)
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const missing = [];
const redis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
if (redis.error || redis.status !== 0) {
  missing.push(
    'redis-server is not on the PATH: `sudo apt-get install -y redis-server` (Debian/Ubuntu) or `brew install redis` (macOS).',
  );
}
const initdb = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout?.trim();
const pgRoot = '/usr/lib/postgresql';
const debianPg =
  existsSync(pgRoot) &&
  readdirSync(pgRoot).some((version) => existsSync(join(pgRoot, version, 'bin', 'initdb')));
if (!initdb && !debianPg) {
  missing.push(
    'PostgreSQL (initdb, postgres) is not installed: `sudo apt-get install -y postgresql` (Debian/Ubuntu).',
  );
}
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  missing.push(
    `Chromium is not at ${chromium}: \`sudo apt-get install -y chromium\` (Debian), or set CHROMIUM_PATH.`,
  );
}
if (missing.length > 0) {
  for (const line of missing) console.error(line);
  process.exit(1);
}
