import app from '@adonisjs/core/services/app'
import { pluginRegistry } from '#services/plugin_registry'
import { viewerBaseUrl } from '#services/public_surface'

/**
 * The embed scripts, built from resources/embed/ on first request and kept in memory:
 * - /embed.js: `Flowcraft.init*` (embed.ts), a classic script;
 * - /typebot/web.js: the Typebot-compatible ES module (typebot.ts).
 * esbuild (already there for Vite) bundles core.ts into each and minifies: neither
 * imports anything else. The server writes in its VIEWER_URL and the script origins the
 * plugins declare (`hostScripts`): the only ones a bot's actions may load into a host page
 * besides those the site owner allows (docs/embed.md).
 */
const SOURCES = {
  flowcraft: { file: 'resources/embed/embed.ts', format: 'iife' },
  typebot: { file: 'resources/embed/typebot.ts', format: 'esm' },
} as const

export type EmbedScript = keyof typeof SOURCES

const compiled = new Map<EmbedScript, { viewer: string; code: Promise<string> }>()

/** Every plugin's declared host script origins, sorted and without repeats. */
export async function declaredScriptOrigins(): Promise<string[]> {
  const origins = new Set<string>()
  for (const plugin of (await pluginRegistry()).all()) {
    for (const origin of plugin.hostScripts ?? []) origins.add(origin)
  }
  return [...origins].sort()
}

async function compile(script: EmbedScript, viewer: string): Promise<string> {
  const { build } = await import('esbuild')
  const origins = await declaredScriptOrigins()
  const output = await build({
    entryPoints: [app.makePath(SOURCES[script].file)],
    bundle: true,
    write: false,
    format: SOURCES[script].format,
    target: 'es2019',
    minify: !app.inDev && !app.inTest,
    // Iframes point at the viewer host when there is one, wherever the script was loaded.
    define: {
      __FLOWCRAFT_VIEWER_URL__: JSON.stringify(viewer),
      __FLOWCRAFT_SCRIPT_ORIGINS__: JSON.stringify(origins),
    },
    logLevel: 'silent',
  })
  return output.outputFiles[0].text
}

export function embedScript(script: EmbedScript = 'flowcraft'): Promise<string> {
  const viewer = viewerBaseUrl()
  // Development edits the source: compile again each time there.
  if (app.inDev) return compile(script, viewer)
  const cached = compiled.get(script)
  if (cached?.viewer === viewer) return cached.code
  const code = compile(script, viewer).catch((error) => {
    compiled.delete(script)
    throw error
  })
  compiled.set(script, { viewer, code })
  return code
}
