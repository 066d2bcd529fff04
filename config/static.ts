import { defineConfig } from '@adonisjs/static'

const staticServerConfig = defineConfig({
  enabled: true,
  etag: true,
  lastModified: true,
  dotFiles: 'ignore',
  // The public bot page runs in an opaque origin (docs/security.md): its module scripts and
  // fonts are fetched in CORS mode with `Origin: null`. These files are public anyway.
  headers: () => ({ 'Access-Control-Allow-Origin': '*' }),
})

export default staticServerConfig
