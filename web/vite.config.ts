import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the Vite server proxies the API and the device stream to the Hearth server.
const target = process.env.HEARTH_DEV_SERVER ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Separate files compile in parallel and off the main thread, and the vendor ones stay
        // cached across releases of the app code.
        advancedChunks: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target, changeOrigin: false },
      '/healthz': { target },
      '/ws': { target: target.replace(/^http/, 'ws'), ws: true },
    },
  },
});
