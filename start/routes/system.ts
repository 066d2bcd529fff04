import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const HealthController = () => import('#controllers/health_controller')
const MailboxController = () => import('#controllers/dev/mailbox_controller')
const StorageFilesController = () => import('#controllers/files/storage_files_controller')

router.get('/health', [HealthController, 'handle'])

router
  .group(() => {
    router.get('/dev/mailbox', [MailboxController, 'index'])
    router.post('/dev/mailbox/clear', [MailboxController, 'clear'])
  })
  .use(middleware.devOnly())

/**
 * Stored files, public and private (app/services/storage.ts, STORAGE_ROUTE). The service is
 * not imported here: drive's service module awaits the app's boot, and a route file that
 * waits would register its routes after the public bot page's catch-all `/:publicId`.
 */
router.get('/storage/*', [StorageFilesController, 'show']).as('storage.file')
