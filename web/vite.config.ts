// Vite build of the web app (DESIGN.md §2). The production build goes to web/dist and is served by the server.
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

// Text files worth compressing. Source maps are left out: only developer tools fetch them, and brotli at
// its best quality would spend seconds of every build on them. index.html is left out too: the server
// renders it per request (its CSP nonce), it is never sent as the file.
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|html|txt|xml|webmanifest|wasm)$/;
const MIN_BYTES = 1024;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.')) // .vite/manifest.json is build metadata, never served
      .map((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)])),
  );
  return nested.flat();
}

/**
 * After the build, writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) next to each compressible
 * file of 1 KB or more in web/dist, each only when smaller than the file; the server sends them to browsers
 * that accept them (@fastify/static preCompressed, server/src/platform/http/web-app.ts).
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'pluma-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((file) => COMPRESSIBLE.test(file) && file !== path.join(outDir, 'index.html'));
      let count = 0;
      let before = 0;
      let after = 0;
      await Promise.all(
        files.map(async (file) => {
          if ((await stat(file)).size < MIN_BYTES) return;
          const source = await readFile(file);
          const [br, gz] = await Promise.all([
            brotli(source, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: source.length,
              },
            }),
            gzipAsync(source, { level: zlibConstants.Z_BEST_COMPRESSION }),
          ]);
          count++;
          before += source.length;
          after += Math.min(br.length, source.length);
          if (br.length < source.length) await writeFile(`${file}.br`, br);
          if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
        }),
      );
      this.info?.(`precompressed ${count} files: ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB brotli`);
    },
  };
}

/**
 * The lazy screens a first visit most likely opens, by name: index.html's first-screen script picks
 * some by URL and session and fetches their chunks alongside the entry's, instead of after the entry
 * has run and the router has asked for them (a waterfall of round trips on a slow network).
 * Paths are relative to web/. The i18n namespaces ('<namespace>.<lang>') are added on their own.
 */
const FIRST_SCREENS: Record<string, string[]> = {
  landing: ['src/features/landing/LandingPage.tsx'],
  login: ['src/features/auth/LoginPage.tsx'],
  signup: ['src/features/auth/SignupPage.tsx'],
  recovery: ['src/features/auth/RecoveryPage.tsx'],
  shell: ['src/app/shell/ShellApp.tsx'],
  conversations: ['src/features/conversations/ConversationsPage.tsx'],
  conversation: ['src/features/chat/ConversationPage.tsx'],
};

/** Where index.html's first-screen script receives the map of screen → chunk URLs. */
const FIRST_SCREEN_MARKER = '/*first-screen-chunks*/ {}';
const NAMESPACE_MODULE = /[\\/]src[\\/]i18n[\\/]([a-z]+)\.([a-z]{2})\.json$/;

/**
 * Fills index.html's first-screen map at build: for each screen of FIRST_SCREENS and each lazily loaded
 * i18n namespace, the URLs of the chunks (and their CSS) it loads that the entry does not already load;
 * and under 'entry', the entry's own chunks.
 */
function firstScreenChunks(): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'pluma-first-screen-chunks',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle || !html.includes(FIRST_SCREEN_MARKER)) return html;
        const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const closure = (files: string[]) => {
          const seen = new Set<string>();
          const queue = [...files];
          while (queue.length) {
            const file = queue.pop()!;
            if (seen.has(file)) continue;
            seen.add(file);
            queue.push(...(byFile.get(file)?.imports ?? []));
          }
          return seen;
        };
        const loaded = closure(chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName));
        const urlsOf = (files: string[]) => {
          const urls: string[] = [];
          for (const file of closure(files)) {
            if (loaded.has(file)) continue;
            urls.push(base + file);
            for (const css of byFile.get(file)?.viteMetadata?.importedCss ?? []) urls.push(base + css);
          }
          return urls;
        };
        // The chunk that holds a screen's module: its own, or the chunk of a group that took it in.
        const chunkOf = (relative: string) => {
          const id = path.join(root, relative);
          const chunk = chunks.find((item) => item.facadeModuleId === id) ?? chunks.find((item) => item.moduleIds.includes(id));
          if (!chunk) throw new Error(`first-screen chunks: no chunk holds ${relative}`);
          return chunk.fileName;
        };
        // 'entry': the entry's own chunks, which index.html's script links ahead of the screen's chunks.
        const map: Record<string, string[]> = { entry: [...loaded].reverse().map((file) => base + file) };
        for (const [screen, modules] of Object.entries(FIRST_SCREENS)) map[screen] = urlsOf(modules.map(chunkOf));
        for (const chunk of chunks) {
          const match = chunk.facadeModuleId && NAMESPACE_MODULE.exec(chunk.facadeModuleId);
          if (match) map[`${match[1]}.${match[2]}`] = urlsOf([chunk.fileName]);
        }
        return html.replace(FIRST_SCREEN_MARKER, JSON.stringify(map));
      },
    },
  };
}

const MANTINE_FIRST_CSS = 'src/app/mantine-first.css';
const MANTINE_ALL_CSS = /[\\/]@mantine[\\/]core[\\/]styles\.layer\.css$/;
const MANTINE_COMPONENT = /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/](\w+)[\\/]/;
const FEATURE_MODULE = /[\\/]src[\\/]features[\\/]/;
// A feature's index.ts, through which the other features import it (eslint.config.js): only re-exports.
const FEATURE_INDEX = /[\\/]src[\\/]features[\\/][^\\/]+[\\/]index\.ts$/;

/**
 * Checks that src/app/mantine-first.css has the styles of every Mantine component the code can render
 * before all of Mantine's styles are loaded: the entry, what it loads on demand outside the feature
 * pages (e.g. notifications), and the landing and sign-in screens — up to the chunks that import
 * @mantine/core/styles.layer.css (the shell, public and standalone routes, which wait for those styles
 * before they render, and render every other feature page). A missing one fails the build.
 */
function mantineFirstCss(): Plugin {
  let root = '';
  return {
    name: 'pluma-mantine-first-css',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item) => item.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const holdsAll = new Set(chunks.filter((chunk) => chunk.moduleIds.some((id) => MANTINE_ALL_CSS.test(id))).map((chunk) => chunk.fileName));
      if (holdsAll.size === 0) return;
      const staticClosure = (file: string, seen = new Set<string>()): Set<string> => {
        if (seen.has(file)) return seen;
        seen.add(file);
        for (const next of byFile.get(file)?.imports ?? []) staticClosure(next, seen);
        return seen;
      };
      const waitsForAll = (file: string) => [...staticClosure(file)].some((item) => holdsAll.has(item));
      const used = new Map<string, string>();
      const publicScreens = ['landing', 'login', 'signup', 'recovery'].flatMap((screen) => FIRST_SCREENS[screen]).map((module) => path.join(root, module));
      const isPage = (file: string) => FEATURE_MODULE.test(byFile.get(file)?.facadeModuleId ?? '');
      const queue = chunks.filter((chunk) => chunk.isEntry || publicScreens.some((id) => chunk.moduleIds.includes(id))).map((chunk) => chunk.fileName);
      const seen = new Set<string>();
      while (queue.length) {
        const file = queue.pop()!;
        if (seen.has(file) || waitsForAll(file)) continue;
        seen.add(file);
        const chunk = byFile.get(file);
        if (!chunk) continue;
        for (const id of chunk.moduleIds) {
          const component = MANTINE_COMPONENT.exec(id)?.[1];
          if (component && !used.has(component)) used.set(component, file);
        }
        // Feature pages load on demand render inside the routes that wait for all of Mantine's styles.
        queue.push(...chunk.imports, ...chunk.dynamicImports.filter((next) => !isPage(next)));
      }
      const listed = await readFile(path.join(root, MANTINE_FIRST_CSS), 'utf8');
      const stylesDir = path.join(path.dirname(fileURLToPath(import.meta.resolve('@mantine/core/styles.layer.css'))), 'styles');
      const missing: string[] = [];
      for (const [component, file] of used) {
        const css = `${component}.layer.css`;
        if (!listed.includes(`@mantine/core/styles/${css}`) && existsSync(path.join(stylesDir, css))) missing.push(`@import '@mantine/core/styles/${css}'; (${file})`);
      }
      if (missing.length) this.error(`${MANTINE_FIRST_CSS} lacks the styles of components the first screens use; add:\n  ${missing.join('\n  ')}`);
    },
  };
}

// Where `npm run dev` proxies API and socket traffic (scripts/dev.mjs sets it).
const apiTarget = process.env.PLUMA_API_URL ?? 'http://localhost:3000';

// `vite build --ssr` (web/package.json) builds the server's first paint of the signed-out screens
// (src/prerender/entry.tsx) into dist-ssr: no compression, chunk map or Mantine check there.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), precompress(), firstScreenChunks(), mantineFirstCss()],
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/socket.io': { target: apiTarget, ws: true, changeOrigin: false },
    },
  },
  build: isSsrBuild
    ? { outDir: 'dist-ssr', emptyOutDir: true, copyPublicDir: false, target: 'node20', rolldownOptions: { output: { codeSplitting: false } } }
    : {
    outDir: 'dist',
    // dist/.vite/manifest.json: bench/bundle-size.mjs measures the login route's critical path from it.
    manifest: true,
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // The features' index.ts files have no side effects: a screen that imports one thing from a feature gets
      // that thing's modules, not those of everything else the index exports (rolldown otherwise puts them all
      // in the chunks of every importer: the start-a-chat box would bring the chat's markdown with it).
      treeshake: { moduleSideEffects: (id: string) => !FEATURE_INDEX.test(id) },
      output: {
        // What every first visit runs comes in few files, so they download in one round on a slow
        // network: React (long-lived), the other libraries the entry needs (router, TanStack Query,
        // i18next, Mantine's core), and the app's own start-up code in the entry chunk. Everything else
        // (Mantine dates/charts, markdown, socket.io, editor) stays in the lazy route chunks that use it,
        // so the login route's critical path carries only what it renders.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
            { name: 'vendor', test: /node_modules[\\/]/, tags: ['$initial'], priority: 20 },
            { name: 'app', tags: ['$initial'], priority: 10 },
          ],
        },
      },
    },
  },
  // Bundled into dist-ssr rather than imported at run time: their CSS imports and extension-less ESM
  // paths mean nothing to Node.
  ssr: { noExternal: isSsrBuild ? [/^@mantine\//, /^@tabler\//, '@pluma/common'] : [] },
}));
