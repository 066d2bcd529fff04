import { defineConfig } from 'vite'
import { fileURLToPath } from 'node:url'
import adonisjs from '@adonisjs/vite/client'
import inertia from '@adonisjs/inertia/client'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import pluginsConfig from './config/plugins.js'
import { flowcraftPlugins } from './vite/flowcraft_plugins.js'

const root = fileURLToPath(new URL('./', import.meta.url))

export default defineConfig({
  plugins: [
    inertia({ ssr: { enabled: false } }),
    react(),
    tailwindcss(),
    adonisjs({ entrypoints: ['resources/app.tsx'], reload: ['resources/views/**/*.edge'] }),
    // The manifests, forms, icons, texts and chat inputs of every plugin, folder or package.
    flowcraftPlugins({ root, packages: pluginsConfig.packages }),
  ],
  server: {
    // The public bot page is an opaque origin (CSP sandbox, docs/security.md): its module
    // scripts come with `Origin: null`. Development only; the build is served by the app.
    cors: {
      origin: [/^https?:\/\/(?:(?:[^:]+\.)?localhost|127\.0\.0\.1|\[::1\])(?::\d+)?$/, 'null'],
    },
  },
  optimizeDeps: {
    // The plugins' forms and chat inputs are reached through a generated module the dependency
    // scanner does not follow: scan them too, so their npm imports are bundled up front
    // instead of forcing a reload when a page first shows one.
    entries: ['resources/app.tsx', 'plugins/**/*.tsx'],
  },
  resolve: {
    alias: [
      { find: /^~\//, replacement: fileURLToPath(new URL('./resources/', import.meta.url)) },
      // A plugin's form.tsx and viewer.tsx get the app's parts through #sdk/forms and
      // #sdk/viewer (docs/plugins.md); a plugin package names the SDK @flowcraft/sdk/*.
      {
        find: /^(?:#sdk|@flowcraft\/sdk)\/(forms|viewer)$/,
        replacement: fileURLToPath(new URL('./resources/sdk/$1.ts', import.meta.url)),
      },
      {
        find: /^(?:#sdk|@flowcraft\/sdk)\//,
        replacement: fileURLToPath(new URL('./app/sdk/', import.meta.url)),
      },
      { find: /^#shared\//, replacement: fileURLToPath(new URL('./app/shared/', import.meta.url)) },
    ],
  },
})
