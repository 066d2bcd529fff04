import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'
import { viewerBaseUrl } from '#services/public_surface'

/**
 * /embed.js: the dependency-free embed script (resources/embed/embed.ts), compiled to one
 * minified file on first request and kept in memory. esbuild (already there for Vite)
 * only strips types and minifies: the source imports nothing.
 */
let compiled: { viewer: string; code: Promise<string> } | undefined

async function compile(viewer: string): Promise<string> {
  const source = await readFile(app.makePath('resources/embed/embed.ts'), 'utf8')
  const { transform } = await import('esbuild')
  const output = await transform(source, {
    loader: 'ts',
    format: 'iife',
    target: 'es2019',
    minify: !app.inDev && !app.inTest,
    // Iframes point at the viewer host when there is one, wherever the script was loaded.
    define: { __FLOWCRAFT_VIEWER_URL__: JSON.stringify(viewer) },
  })
  return output.code
}

export function embedScript(): Promise<string> {
  const viewer = viewerBaseUrl()
  // Development edits the source: compile again each time there.
  if (app.inDev) return compile(viewer)
  if (compiled?.viewer !== viewer) {
    const code = compile(viewer).catch((error) => {
      compiled = undefined
      throw error
    })
    compiled = { viewer, code }
  }
  return compiled.code
}
