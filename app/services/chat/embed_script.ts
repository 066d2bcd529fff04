import { readFile } from 'node:fs/promises'
import app from '@adonisjs/core/services/app'

/**
 * /embed.js: the dependency-free embed script (resources/embed/embed.ts), compiled to one
 * minified file on first request and kept in memory. esbuild (already there for Vite)
 * only strips types and minifies: the source imports nothing.
 */
let compiled: Promise<string> | undefined

async function compile(): Promise<string> {
  const source = await readFile(app.makePath('resources/embed/embed.ts'), 'utf8')
  const { transform } = await import('esbuild')
  const output = await transform(source, {
    loader: 'ts',
    format: 'iife',
    target: 'es2019',
    minify: !app.inDev && !app.inTest,
  })
  return output.code
}

export function embedScript(): Promise<string> {
  // Development edits the source: compile again each time there.
  if (app.inDev) return compile()
  compiled ??= compile().catch((error) => {
    compiled = undefined
    throw error
  })
  return compiled
}
