import { isAbsolute, relative } from 'node:path'
import app from '@adonisjs/core/services/app'
import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import ViteMiddleware from '@adonisjs/vite/vite_middleware'
import env from '#start/env'
import { storageRootOf } from '#services/storage_config'

/**
 * The Vite dev server (development and tests; production has none) answers any file under
 * the project root it is asked for. Stored files, private ones included, are the app's to
 * serve or refuse (docs/security.md, "Storage"), and tmp/ holds the SQLite database: requests
 * under those folders never reach Vite.
 */
function topFolderInProject(path: string) {
  const inside = relative(app.makePath(), isAbsolute(path) ? path : app.makePath(path))
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) return null
  return inside.split(/[/\\]/)[0]
}

const appOnlyFolders = new Set(
  [
    'storage',
    'tmp',
    topFolderInProject(storageRootOf({ STORAGE_PATH: env.get('STORAGE_PATH') })),
    topFolderInProject(env.get('SQLITE_PATH') || 'tmp/db.sqlite3'),
  ].filter((folder): folder is string => !!folder)
)

function isAppOnly(url: string) {
  const first = url.split('/')[1] ?? ''
  let folder = first
  try {
    folder = decodeURIComponent(first)
  } catch {}
  return appOnlyFolders.has(folder)
}

let vite: Promise<ViteMiddleware> | undefined

export default class ViteDevMiddleware {
  async handle(ctx: HttpContext, next: NextFn) {
    if (isAppOnly(ctx.request.url())) return next()
    vite ??= app.container.make(ViteMiddleware)
    return (await vite).handle(ctx, next)
  }
}
