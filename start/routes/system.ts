import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'
import { STORAGE_ROUTE } from '#services/storage'

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

/** Stored files, public and private (app/services/storage.ts). */
router.get(STORAGE_ROUTE, [StorageFilesController, 'show'])
