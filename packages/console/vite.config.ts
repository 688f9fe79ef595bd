import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The console builds into `static/` (committed, shipped in the package): relative asset URLs so it
// works under any mount path; `pnpm dev:web` proxies the API to a server on :3000.
export default defineConfig({
  root: 'web',
  base: './',
  plugins: [react()],
  build: { outDir: '../static', emptyOutDir: true, assetsDir: 'assets', chunkSizeWarningLimit: 1200 },
  server: { proxy: { '/v1': 'http://127.0.0.1:3000' } },
});
