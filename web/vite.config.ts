// Vite build of the web app (DESIGN.md §2). The production build goes to web/dist and is served by the server.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Where `npm run dev` proxies API and socket traffic (scripts/dev.mjs sets it).
const apiTarget = process.env.PLUMA_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: bench/bundle-size.mjs measures the login route's critical path from it.
    manifest: true,
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks that every screen needs, cached across deploys. Everything else
        // (Mantine dates/charts, markdown, socket.io, editor) stays in the lazy route chunks that use it,
        // so the login route's critical path carries only what it renders.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'router', test: /node_modules[\\/](react-router|cookie|set-cookie-parser)[\\/]/, priority: 20 },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 20 },
            { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next|html-parse-stringify|void-elements)[\\/]/, priority: 20 },
          ],
        },
      },
    },
  },
});
