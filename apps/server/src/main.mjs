// The reference server (apps/server) is not built yet: the runtime core comes first.
// This placeholder keeps `pnpm start` honest until the server issue lands.
console.error('Awaken reference server: not built yet. The core packages exist; see README.md for status.');
process.exitCode = 1;
