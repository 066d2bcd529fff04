import { useCallback, useEffect, useRef } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import type { UserDto } from '#shared/types'
import { HttpError, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { useDebouncedCallback } from '~/hooks/use_debounced_callback'

export type UserPatch = Partial<
  Pick<UserDto, 'name' | 'graphNavigation' | 'preferredAppAppearance' | 'preferredLanguage'>
>

export const USER_UPDATE_DEBOUNCE_MS = 1000

/**
 * Partial updates of the signed-in user: changes are merged and sent
 * after 1000 ms without a new change, then the user prop is reloaded.
 */
export function useUpdateUser(userId: string | undefined) {
  const { t } = useTranslation()
  const pending = useRef<UserPatch>({})

  const flush = useDebouncedCallback(async () => {
    const patch = pending.current
    pending.current = {}
    if (!userId || Object.keys(patch).length === 0) return
    try {
      await jsonFetch(`/api/users/${userId}`, { method: 'PATCH', body: patch })
      router.reload({ only: ['user'] })
    } catch (error) {
      // A refusal with its reason (4xx, already translated by jsonFetch) says why; anything
      // else gets the generic message.
      const refused = error instanceof HttpError && error.status >= 400 && error.status < 500
      showToast(
        'error',
        refused ? error.message : t('settings.userUpdateError.title'),
        refused ? error.description : t('settings.userUpdateError.description')
      )
    }
  }, USER_UPDATE_DEBOUNCE_MS)

  // Leaving the page (reload, tab closed, full navigation) still sends the pending change.
  useEffect(() => {
    const onPageHide = () => {
      const patch = pending.current
      if (!userId || Object.keys(patch).length === 0) return
      pending.current = {}
      void jsonFetch(`/api/users/${userId}`, {
        method: 'PATCH',
        body: patch,
        keepalive: true,
      }).catch(() => {})
    }
    window.addEventListener('pagehide', onPageHide)
    return () => window.removeEventListener('pagehide', onPageHide)
  }, [userId])

  return useCallback(
    (patch: UserPatch) => {
      pending.current = { ...pending.current, ...patch }
      flush()
    },
    [flush]
  )
}
