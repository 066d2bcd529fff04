import { useEffect } from 'react'
import { usePageProps } from '~/hooks/use_shared_props'
import { useSyncUserColorMode } from '~/hooks/use_color_mode'
import { showFlashToast } from '~/lib/toast'
import { changeLanguage } from '~/lib/i18n'
import { useSessionRefetch } from '~/hooks/use_session_refetch'

/**
 * Effects of the shared props, rendered by every layout: flashed toast, the user's saved
 * colour mode and language, the current workspace mirrored into localStorage, and the
 * session asked again when the tab comes back (use_session_refetch.ts).
 */
export function PageEffects() {
  const { toast, user, currentWorkspace } = usePageProps()

  // Before the toast effect, so that a flashed toast is shown in the user's language.
  const language = user?.preferredLanguage
  useEffect(() => {
    if (language) void changeLanguage(language)
  }, [language])

  useEffect(() => {
    showFlashToast(toast)
  }, [toast])

  useSyncUserColorMode(user?.preferredAppAppearance)
  useSessionRefetch(user, currentWorkspace?.id ?? null)

  const workspaceId = currentWorkspace?.id
  useEffect(() => {
    if (!workspaceId) return
    try {
      localStorage.setItem('currentWorkspaceId', workspaceId)
    } catch {}
  }, [workspaceId])

  return null
}
