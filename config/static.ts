import { sep } from 'node:path'
import { defineConfig } from '@adonisjs/static'
import { IMMUTABLE } from '#services/http_compression'

const staticServerConfig = defineConfig({
  enabled: true,
  etag: true,
  lastModified: true,
  dotFiles: 'ignore',
  // The public bot page runs in an opaque origin (docs/security.md): its module scripts and
  // fonts are fetched in CORS mode with `Origin: null`. These files are public anyway.
  // The build's files (public/assets) are named after their content: cached for good.
  headers: (path) => ({
    'Access-Control-Allow-Origin': '*',
    ...(path.includes(`${sep}assets${sep}`) ? { 'Cache-Control': IMMUTABLE } : {}),
  }),
})

export default staticServerConfig
