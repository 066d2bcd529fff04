import {
  build,
  defineConfig,
  type InlineConfig,
  type Plugin,
  type PluginOption,
  type UserConfig,
} from 'vite'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import adonisjs from '@adonisjs/vite/client'
import inertia from '@adonisjs/inertia/client'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import pluginsConfig from './config/plugins.js'
import { flowcraftPlugins } from './vite/flowcraft_plugins.js'
import { appResolve } from './vite/app_resolve.js'

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
          // Not the manifests: the server reads them from disk, and the visitor's build
          // rewrites the dashboard's after this ran (mergeVisitorManifest).
          .filter((name) => !name.startsWith('.vite/'))
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
 * what it imports lazily (inputs, Markdown) stays in chunks of its own. Used by the visitor's
 * own build (`visitorBuild`), so the dashboard shares none of them.
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

/**
 * The visitor surface's own build: `resources/viewer.tsx` and everything it imports, bundled
 * apart from the dashboard once the dashboard's build has written its files. One rollup build
 * resolves a module once for every entry, and the chat's modules (chat view, bubbles, button)
 * are also the editor preview's: only a module graph of the visitor's own lets its chunks be
 * cut for it alone (`visitorChunks`) without the dashboard sharing them.
 */
function visitorBuild(plugins: () => PluginOption[]): Plugin {
  let outer: { root: string; outDir: string; base: string; logLevel: InlineConfig['logLevel'] }
  let written = false
  return {
    name: 'flowcraft:visitor-build',
    apply: 'build',
    configResolved(resolved) {
      outer = {
        root: resolved.root,
        outDir: resolve(resolved.root, resolved.build.outDir),
        base: resolved.base,
        logLevel: resolved.logLevel,
      }
    },
    writeBundle() {
      written = true
    },
    // After every writeBundle (the dashboard's manifest and compressed copies are on disk);
    // not when the dashboard's build failed.
    async closeBundle() {
      if (!written) return
      await build({
        configFile: false,
        root: outer.root,
        base: outer.base,
        mode: 'production',
        logLevel: outer.logLevel,
        publicDir: false,
        resolve: appResolve(root, 'visitor'),
        build: {
          outDir: outer.outDir,
          // Beside the dashboard's files, in the same folder the server serves.
          emptyOutDir: false,
          assetsDir: '',
          assetsInlineLimit: 0,
          manifest: VISITOR_MANIFEST,
          rollupOptions: {
            input: [VIEWER_ENTRY],
            output: { manualChunks: visitorChunks() },
            treeshake: TREESHAKE,
          },
        },
        plugins: plugins(),
      })
      await mergeVisitorManifest(outer.outDir)
    },
  }
}

const VISITOR_MANIFEST = '.vite/visitor-manifest.json'

/**
 * The server finds an entry's script, preloads and stylesheets in one manifest
 * (config/vite.ts): the visitor build's entry and the chunks it imports statically join the
 * dashboard's. Its lazy chunks need no entry there (the entry's code names their files).
 */
async function mergeVisitorManifest(outDir: string) {
  type Chunk = { file: string; imports?: string[] }
  const mainPath = join(outDir, '.vite/manifest.json')
  const visitorPath = join(outDir, VISITOR_MANIFEST)
  const main: Record<string, Chunk> = JSON.parse(await readFile(mainPath, 'utf8'))
  const visitor: Record<string, Chunk> = JSON.parse(await readFile(visitorPath, 'utf8'))
  const queue = ['resources/viewer.tsx']
  while (queue.length) {
    const key = queue.pop()!
    const chunk = visitor[key]
    if (!chunk) throw new Error(`${key} is not in ${VISITOR_MANIFEST}`)
    // Chunk keys are named after their file, which is named after its content: the same key
    // in both builds is the same file.
    if (main[key] && main[key].file !== chunk.file) {
      throw new Error(`${key} is ${main[key].file} for the dashboard, ${chunk.file} for the chat`)
    }
    main[key] = chunk
    queue.push(...(chunk.imports ?? []).filter((name) => main[name]?.file !== visitor[name]?.file))
  }
  await writeFile(mainPath, JSON.stringify(main, null, 2))
  await rm(visitorPath)
}

const TREESHAKE = {
  // DOMPurify's module only builds its sanitiser (no global change), but declares no
  // `sideEffects`: without this, every chat input that imports #sdk/viewer would
  // download it for the two inputs that sanitise (file, rating).
  moduleSideEffects: (id: string) => !id.includes('/node_modules/dompurify/'),
}

/** What both builds compile the same way: React, Tailwind, compressed copies, the plugins. */
const sharedPlugins = () => [
  react(),
  tailwindcss(),
  precompress(),
  // The manifests, forms, icons, texts and chat inputs of every plugin, folder or package.
  flowcraftPlugins({ root, packages: pluginsConfig.packages }),
]

export default defineConfig(({ command }) => {
  // A build is what users are served: libraries (React first) in their production mode,
  // whatever NODE_ENV the calling process had (ace's build leaves it unset, and a tool
  // along the way then picks "development").
  if (command === 'build') process.env.NODE_ENV = 'production'
  return config(command)
})

const config = (command: 'build' | 'serve'): UserConfig => ({
  build: {
    rollupOptions: { treeshake: TREESHAKE },
  },
  plugins: [
    inertia({ ssr: { enabled: false } }),
    ...sharedPlugins(),
    adonisjs({
      // The dashboard (Inertia) and the visitor surface (public page, embed iframes). The
      // dev server serves both; a build makes the visitor's in a build of its own.
      entrypoints:
        command === 'build' ? ['resources/app.tsx'] : ['resources/app.tsx', 'resources/viewer.tsx'],
      reload: ['resources/views/**/*.edge'],
    }),
    visitorBuild(sharedPlugins),
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
  resolve: appResolve(root, 'dashboard'),
})
