/// <reference types="vitest/config" />
import { defineConfig, loadEnv } from 'vite'
import react from '@vitejs/plugin-react'

// The built app is embedded in the Go binary (internal/webapp), so it is
// written there; `npm run build` recreates the .gitkeep placeholder afterwards.
export default defineConfig(({ mode }) => {
  // `npm run dev` proxies the API to the Go server; MEMBERS_API_URL overrides the address.
  const backend = loadEnv(mode, '.', '').MEMBERS_API_URL || 'http://127.0.0.1:8080'
  return {
    plugins: [react()],
    base: '/',
    resolve: {
      alias: { '@': new URL('./src', import.meta.url).pathname },
    },
    build: {
      outDir: '../internal/webapp/dist',
      emptyOutDir: true,
      rolldownOptions: {
        output: {
          codeSplitting: {
            groups: [
              {
                // One chunk per language with every namespace's catalogue:
                // a page loads its language in one request, never all eight.
                name: (id: string) => /\/locales\/([a-z]+)\.json$/.exec(id)?.[1]?.replace(/^/, 'locale-') ?? null,
                test: /\/locales\/[a-z]+\.json$/,
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
      environment: 'jsdom',
      globals: true,
      setupFiles: ['./src/test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      restoreMocks: true,
      testTimeout: 20000,
    },
  }
})
