import router from '@adonisjs/core/services/router'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { extname } from 'node:path'
import { middleware } from '#start/kernel'
import { pathFor } from '#services/storage'

const HealthController = () => import('#controllers/health_controller')
const MailboxController = () => import('#controllers/dev/mailbox_controller')

router.get('/health', [HealthController, 'handle'])

router
  .group(() => {
    router.get('/dev/mailbox', [MailboxController, 'index'])
    router.post('/dev/mailbox/clear', [MailboxController, 'clear'])
  })
  .use(middleware.devOnly())

const MIME: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.pdf': 'application/pdf',
}

/** Files of the local-disk storage. */
router.get('/storage/*', async ({ params, response }) => {
  let path: string
  try {
    path = pathFor((params['*'] as string[]).join('/'))
    const info = await stat(path)
    if (!info.isFile()) return response.notFound('Not found')
  } catch {
    return response.notFound('Not found')
  }
  const type = MIME[extname(path).toLowerCase()] ?? 'application/octet-stream'
  response.header('content-type', type)
  // SVG and unknown types download rather than render, so an uploaded file cannot run script here.
  if (type === 'image/svg+xml' || type === 'application/octet-stream')
    response.header('content-disposition', 'attachment')
  response.header('x-content-type-options', 'nosniff')
  return response.stream(createReadStream(path))
})
