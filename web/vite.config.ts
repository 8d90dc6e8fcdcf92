/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Paths the Go server owns; in development the Vite server forwards them to it.
// Anchored patterns, so that /d/{code} does not swallow /dashboard.
const backend = 'http://localhost:8080'
const proxied = ['^/api/', '^/auth/google', '^/auth/oidc', '^/d/', '^/logo/', '^/pdf/', '^/images/']

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: Object.fromEntries(proxied.map((path) => [path, { target: backend, changeOrigin: false }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest tells scripts/prerender.mjs the built name of src/public.ts.
    manifest: true,
    rolldownOptions: {
      // index.html starts the app; src/public.ts starts the prerendered public pages.
      input: { index: 'index.html', public: 'src/public.ts' },
      output: {
        // React changes less often than our code: its own chunk stays cached across deploys.
        // Other libraries go with the pages that use them, so a page loads only its own code.
        codeSplitting: {
          groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]/ }],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Generous: these tests check behaviour, not speed (see src/test/setup.ts).
    testTimeout: 30_000,
  },
})
