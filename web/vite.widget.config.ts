// The embeddable chat widget's build (issue 15 item 4), run after the app's (web/package.json): one IIFE
// script and one stylesheet with stable names in web/dist/widget/, served as /widget/pluma-widget.js and
// /widget/pluma-widget.css. Vanilla TypeScript, no React: it loads on other people's pages.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const outDir = path.join(import.meta.dirname, 'dist/widget');

/**
 * `.br` and `.gz` siblings of the script and the stylesheet, as the app's build writes for its own files
 * (the server sends them to browsers that accept them: @fastify/static preCompressed). Every page of a
 * site that embeds the widget loads these two files.
 */
function precompressWidget(): Plugin {
  return {
    name: 'pluma-widget-precompress',
    apply: 'build',
    async writeBundle() {
      for (const name of ['pluma-widget.js', 'pluma-widget.css']) {
        const file = path.join(outDir, name);
        const source = await readFile(file);
        const br = await promisify(brotliCompress)(source, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT } });
        const gz = await promisify(gzip)(source, { level: zlibConstants.Z_BEST_COMPRESSION });
        await writeFile(`${file}.br`, br);
        await writeFile(`${file}.gz`, gz);
      }
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  publicDir: false,
  plugins: [precompressWidget()],
  build: {
    outDir,
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
