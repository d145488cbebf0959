import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the Vite server proxies the API and the device stream to the Hearth server.
const target = process.env.HEARTH_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022' },
  server: {
    port: 5173,
    proxy: {
      '/api': { target, changeOrigin: false },
      '/healthz': { target },
      '/ws': { target: target.replace(/^http/, 'ws'), ws: true },
    },
  },
});
