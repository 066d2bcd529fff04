import { useEffect } from 'react'
import { usePageProps } from '~/hooks/use_shared_props'
import { useSyncUserColorMode } from '~/hooks/use_color_mode'
import { showFlashToast } from '~/lib/toast'
import { changeLanguage } from '~/lib/i18n'

/**
 * Effects of the shared props, rendered by every layout: flashed toast, the user's saved
 * colour mode and language, and the current workspace mirrored into localStorage.
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

  const workspaceId = currentWorkspace?.id
  useEffect(() => {
    if (!workspaceId) return
    try {
      localStorage.setItem('currentWorkspaceId', workspaceId)
    } catch {}
  }, [workspaceId])

  return null
}
