import { useEffect } from 'react'
import { router } from '@inertiajs/react'
import type { BotEditorStore } from './bot_editor_store'

/** Spec 01 section 4: autosave after 15 seconds without a change. */
export const AUTOSAVE_DEBOUNCE_MS = 15_000

/**
 * Autosave: 15 s after the last change, when the tab is hidden and before an Inertia
 * visit (which waits for the save, then goes on). While unsaved changes exist the
 * browser asks before leaving the page.
 */
export function useAutosave(store: BotEditorStore) {
  useEffect(() => {
    if (store.getState().readOnly) return
    let timer: ReturnType<typeof setTimeout> | null = null
    const isDirty = () => store.getState().history.present !== store.getState().savedBot
    const saveNow = () => {
      if (timer) clearTimeout(timer)
      timer = null
      return store.getState().save()
    }

    const unsubscribe = store.subscribe((state, previous) => {
      if (state.history.present === previous.history.present) return
      if (timer) clearTimeout(timer)
      timer =
        state.history.present === state.savedBot ? null : setTimeout(saveNow, AUTOSAVE_DEBOUNCE_MS)
    })

    const onVisibility = () => {
      if (document.visibilityState === 'hidden' && isDirty()) void saveNow()
    }
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty() && !store.getState().saving) return
      event.preventDefault()
      // Older browsers show the prompt only with a returnValue.
      event.returnValue = ''
    }
    let resuming = false
    const removeBefore = router.on('before', (event) => {
      if (resuming || !isDirty()) return
      const visit = event.detail.visit
      // Hold the visit, save, then make it again.
      event.preventDefault()
      void saveNow().then(() => {
        resuming = true
        try {
          router.visit(visit.url, {
            method: visit.method,
            data: visit.data,
            replace: visit.replace,
            preserveScroll: visit.preserveScroll,
            preserveState: visit.preserveState,
            only: visit.only,
            headers: visit.headers,
          })
        } finally {
          resuming = false
        }
      })
    })

    document.addEventListener('visibilitychange', onVisibility)
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => {
      unsubscribe()
      removeBefore()
      if (timer) clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisibility)
      window.removeEventListener('beforeunload', onBeforeUnload)
    }
  }, [store])
}
