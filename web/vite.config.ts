/// <reference types="vitest/config" />
import { defineConfig, loadEnv } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { scriptBudget } from './scripts/scriptBudget.ts'
import { manifests } from './scripts/manifests.ts'

/** The chunk of one catalogue: src/locales/en.json → locale-en-common, src/features/x/locales/en.json → locale-en-x. */
export function catalogueChunk(id: string): string | null {
  const m = /(?:\/features\/([a-z]+))?\/locales\/([a-z]+)\.json$/.exec(id)
  return m ? `locale-${m[2]}-${m[1] ?? 'common'}` : null
}

// The built app is embedded in the Go binary (internal/webapp), so it is
// written there; `npm run build` recreates the .gitkeep placeholder afterwards.
export default defineConfig(({ mode }) => {
  // `npm run dev` proxies the API to the Go server; MEMBERS_API_URL overrides the address.
  const backend = loadEnv(mode, '.', '').MEMBERS_API_URL || 'http://127.0.0.1:8080'
  return {
    base: '/',
    // The build fails when the login page's first load is over 130 KiB of
    // compressed JavaScript (docs/speed.md): its chunks and the English
    // catalogue it loads (the shell's: the login page uses no feature's).
    plugins: [
      scriptBudget({ page: 'src/app/pages/LoginPage.tsx', catalogues: ['locale-en-common'], maxBytes: 130 * 1024 }),
      manifests(),
      // The installable app's service worker, made by Workbox (docs/offline.md):
      // - it precaches the app shell: index.html, the first load's chunks, the
      //   offline view's chunk, the shell's and the bookings' catalogues in the
      //   eight languages, the manifests and icons; no other page's chunk;
      // - navigations go to the network first, always: the server's index.html
      //   (a new release's at once), a CDN's 403 page and a waiting room's
      //   answer pass as they come; only a failed navigation (no network)
      //   gets the precached index.html;
      // - it caches nothing under /api: the kept trips are in IndexedDB, written
      //   only when the member chose to keep them (src/features/bookings/offline);
      // - a new release's worker waits until the member presses "Reload to update";
      // - it shows the flight change alerts pushed to the device (public/push-sw.js).
      VitePWA({
        strategies: 'generateSW',
        registerType: 'prompt',
        injectRegister: false,
        manifest: false,
        filename: 'sw.js',
        workbox: {
          globPatterns: [
            'index.html',
            '*.webmanifest',
            'icons/*.png',
            'assets/{index,rolldown-runtime,shell,forms,offline}-*.{js,css}',
            'assets/locale-*-{common,bookings}-*.js',
          ],
          // The precached index.html answers no address by itself ("/" included):
          // only the fallback below serves it, when the network fails.
          navigateFallback: null,
          directoryIndex: null,
          inlineWorkboxRuntime: true,
          // The flight change alerts' push and click handlers (public/push-sw.js,
          // docs/flight-alerts.md): hand-written, as Workbox makes no push
          // handler, and imported into the generated worker.
          importScripts: ['push-sw.js'],
          cleanupOutdatedCaches: true,
          navigationPreload: true,
          runtimeCaching: [
            {
              urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api'),
              handler: 'NetworkOnly',
              options: { precacheFallback: { fallbackURL: 'index.html' } },
            },
          ],
        },
      }),
    ],
    oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
    resolve: {
      alias: [{ find: '@', replacement: new URL('./src', import.meta.url).pathname }],
    },
    build: {
      outDir: '../internal/webapp/dist',
      emptyOutDir: true,
      rolldownOptions: {
        // TanStack Query marks its modules "use client" (for React Server
        // Components); a client-only bundle has nothing to keep them for.
        onLog(level, log, handler) {
          if (log.code === 'MODULE_LEVEL_DIRECTIVE') return
          handler(level, log)
        },
        output: {
          codeSplitting: {
            groups: [
              {
                // One chunk per language and namespace (locale-en-common,
                // locale-jp-bookings): a page loads the shell's and its own
                // namespaces in its language, never every feature's nor all eight.
                name: catalogueChunk,
                // the bundler asks a label for a group named by a function
                debugName: 'locales',
                test: /\/locales\/[a-z]+\.json$/,
                priority: 10,
              },
              {
                // What main.tsx imports, in one chunk: a first load fetches
                // it beside the HTML's other files in one round trip. Left to
                // itself, the bundler split it into eight chunks by which
                // pages share each module, and a phone on HTTP/1.1 (six
                // connections) fetched them in two rounds (docs/speed.md).
                name: 'shell',
                test: /\/src\/app\/main\.tsx$/,
                priority: 5,
              },
              {
                // The offline view, the "Keep my trips" choice and the kept
                // trips' store (IndexedDB): one chunk the service worker
                // precaches, with the bookings' modules the offline view
                // uses. Only these modules: what they import stays in its
                // own chunk (the shell's, the forms'), precached too.
                name: 'offline',
                test: /\/src\/features\/bookings\/(offline\/|components\/SegmentRow\.tsx|format\.ts|api\.ts|searchForm\.ts|bookings\.css)|\/node_modules\/idb-keyval\//,
                includeDependenciesRecursively: false,
                priority: 6,
              },
              {
                // The form library and the shared form components, in one
                // chunk for every page with a form (the login page's too).
                name: 'forms',
                test: /\/node_modules\/react-hook-form\/|\/src\/components\/|\/src\/i18n\/format\.ts$/,
              },
            ],
          },
        },
      },
    },
    server: {
      proxy: {
        '/api': { target: backend, changeOrigin: false },
        '/api_ext': { target: backend, changeOrigin: false },
      },
    },
    test: {
      globals: true,
      restoreMocks: true,
      testTimeout: 20000,
      setupFiles: ['./src/test/setup.ts'],
      // Two kinds of test file: the rules, schemas and formats (*.test.ts)
      // run in plain Node; what renders or needs the browser's globals
      // (*.test.tsx, and a *.test.ts that says `@vitest-environment jsdom`
      // in its first comment) in jsdom, whose start is most of a small
      // file's cost (docs/testing.md).
      projects: [
        {
          extends: true,
          test: {
            name: 'logic',
            environment: 'node',
            // One module graph for all of them: they share no state but
            // the catalogues, which they only read (shuffled runs pass).
            isolate: false,
            include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
          },
        },
        {
          extends: true,
          test: {
            name: 'dom',
            environment: 'jsdom',
            // One module graph and one jsdom for all of them too: 77 → 25
            // CPU s. Each test ends with its apps unmounted and the page's
            // storage and markup cleared (src/test/setup*.ts), so nothing
            // of one file reaches the next (shuffled runs pass).
            isolate: false,
            include: ['src/**/*.test.tsx'],
          },
        },
      ],
    },
  }
})
