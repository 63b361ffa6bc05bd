// The embeddable chat widget's build (issue 15 item 4), run after the app's (web/package.json): one IIFE
// script and one stylesheet with stable names in web/dist/widget/, served as /widget/pluma-widget.js and
// /widget/pluma-widget.css. Vanilla TypeScript, no React: it loads on other people's pages.
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  publicDir: false,
  build: {
    outDir: path.join(import.meta.dirname, 'dist/widget'),
    // The app's build has just filled dist/; the widget only adds its folder.
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: true,
    minify: true,
    lib: {
      entry: path.join(import.meta.dirname, 'widget/main.ts'),
      name: 'PlumaWidget',
      formats: ['iife'],
      fileName: () => 'pluma-widget.js',
      cssFileName: 'pluma-widget',
    },
  },
});
