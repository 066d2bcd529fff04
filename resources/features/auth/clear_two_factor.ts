import { router } from '@inertiajs/react'
import { toast } from 'sonner'
import i18n from '~/lib/i18n_core'
import { jsonFetch } from '~/lib/http'

/** GET /api/2fa/clearTwoFA: forgets the two-factor state. */
export function clearTwoFactor() {
  return jsonFetch('/api/2fa/clearTwoFA')
}

/**
 * Logout: the two-factor state is cleared first, then the session ends
 * and /signin shows 'Logged out successfully'; a failure shows 'Error', 'Something went wrong'.
 */
export async function logout() {
  try {
    await clearTwoFactor()
  } catch {
    toast.error(i18n.t('twoFactor.logoutError'), {
      description: i18n.t('twoFactor.logoutErrorDescription'),
    })
    return
  }
  router.post('/logout')
}
