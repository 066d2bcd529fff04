import { defineConfig, type Plugin, type UserConfig } from 'vite'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import adonisjs from '@adonisjs/vite/client'
import inertia from '@adonisjs/inertia/client'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import pluginsConfig from './config/plugins.js'
import { flowcraftPlugins } from './vite/flowcraft_plugins.js'

const root = fileURLToPath(new URL('./', import.meta.url))

/**
 * Writes a brotli (.br) and a gzip (.gz) copy of every text file of the build, at the
 * highest levels (once per build, not per request): the app serves those to the clients
 * that accept them (app/middleware/static_middleware.ts).
 */
function precompress(): Plugin {
  return {
    name: 'flowcraft:precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!
      await Promise.all(
        Object.keys(bundle)
          .filter((name) => /\.(js|mjs|css|svg|json|html|txt|wasm)$/i.test(name))
          .map(async (name) => {
            const file = join(dir, name)
            const body = await readFile(file)
            if (body.length < 1024) return
            await writeFile(
              `${file}.br`,
              brotliCompressSync(body, {
                params: {
                  [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                  [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
                },
              })
            )
            await writeFile(`${file}.gz`, gzipSync(body, { level: 9 }))
          })
      )
    },
  }
}

const VIEWER_ENTRY = fileURLToPath(new URL('./resources/viewer.tsx', import.meta.url))
const VIEWER_STYLES = fileURLToPath(new URL('./resources/css/viewer.css', import.meta.url))

type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null

/**
 * The visitor surface (resources/viewer.tsx) in two chunks instead of the dozens rollup
 * would cut from the modules it shares with the dashboard (one per icon, say): on a phone
 * every request costs a round trip (docs/architecture.md, "The visitor surface"). Every
 * module the chat imports statically goes to `chat-vendor` (npm packages) or `chat` (ours);
 * what it imports lazily (inputs, Markdown) stays in chunks of its own. The dashboard
 * imports the same two chunks for what it shares with the chat (React, i18next, buttons).
 */
function visitorChunks() {
  let chatModules: Set<string> | undefined
  return (id: string, { getModuleInfo }: { getModuleInfo: ModuleInfoOf }) => {
    if (!chatModules) {
      chatModules = new Set()
      const queue = [VIEWER_ENTRY]
      while (queue.length) {
        const next = queue.pop()!
        if (chatModules.has(next)) continue
        chatModules.add(next)
        const imported = getModuleInfo(next)?.importedIds ?? []
        // An npm package's index of hundreds of modules (icons, primitives) is not followed:
        // the chat imports what it uses from their own files.
        if (next.includes('/node_modules/') && imported.length > 50) continue
        queue.push(...imported)
      }
    }
    // The entry keeps its own stylesheet (viewer.css): the dashboard must not load it.
    if (id === VIEWER_ENTRY || id === VIEWER_STYLES || !chatModules.has(id)) return undefined
    // Rollup's helpers (`\0commonjsHelpers.js`) go with the packages that use them.
    return id.includes('/node_modules/') || id.startsWith('\0') ? 'chat-vendor' : 'chat'
  }
}

export default defineConfig(({ command }) => {
  // A build is what users are served: libraries (React first) in their production mode,
  // whatever NODE_ENV the calling process had (ace's build leaves it unset, and a tool
  // along the way then picks "development").
  if (command === 'build') process.env.NODE_ENV = 'production'
  return config
})

const config: UserConfig = {
  build: {
    rollupOptions: {
      output: { manualChunks: visitorChunks() },
      treeshake: {
        // DOMPurify's module only builds its sanitiser (no global change), but declares no
        // `sideEffects`: without this, every chat input that imports #sdk/viewer would
        // download it for the two inputs that sanitise (file, rating).
        moduleSideEffects: (id) => !id.includes('/node_modules/dompurify/'),
      },
    },
  },
  plugins: [
    inertia({ ssr: { enabled: false } }),
    react(),
    tailwindcss(),
    adonisjs({
      // The dashboard (Inertia) and the visitor surface (public page, embed iframes).
      entrypoints: ['resources/app.tsx', 'resources/viewer.tsx'],
      reload: ['resources/views/**/*.edge'],
    }),
    precompress(),
    // The manifests, forms, icons, texts and chat inputs of every plugin, folder or package.
    flowcraftPlugins({ root, packages: pluginsConfig.packages }),
  ],
  optimizeDeps: {
    // Pre-bundled together with lucide-react, the DynamicIcon entry's thousand-odd lazy
    // icon imports split lucide-react itself into one chunk per icon: every page using an
    // icon then fetches ~1,600 modules in development. The public bot page is an opaque
    // origin with no shared HTTP cache, so two chats on one host page (an embed and a
    // popup) asked for ~3,400 modules at once, over Chromium's per-process cap on
    // requests in flight (ERR_INSUFFICIENT_RESOURCES), and one chat never started.
    // Served as is, the dynamic entry loads only the icons it shows.
    exclude: ['lucide-react/dynamic'],
    // The plugins' forms and chat inputs are reached through a generated module the dependency
    // scanner does not follow: scan them too, so their npm imports are bundled up front
    // instead of forcing a reload when a page first shows one.
    entries: ['resources/app.tsx', 'resources/viewer.tsx', 'plugins/**/*.tsx'],
  },
  server: {
    // The public bot page is an opaque origin (CSP sandbox, docs/security.md): its module
    // scripts come with `Origin: null`. Development only; the build is served by the app.
    cors: {
      origin: [/^https?:\/\/(?:(?:[^:]+\.)?localhost|127\.0\.0\.1|\[::1\])(?::\d+)?$/, 'null'],
    },
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
}
