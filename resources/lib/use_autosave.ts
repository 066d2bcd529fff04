import { useEffect, useRef } from 'react'
import { router } from '@inertiajs/react'
import type { StoreApi } from 'zustand'

/** Spec 01 section 4: autosave after 15 seconds without a change. */
export const AUTOSAVE_DEBOUNCE_MS = 15_000

/** How an editor store tells the autosave what to watch and how to save. */
export interface AutosaveAdapter<S> {
  readOnly: (state: S) => boolean
  /** The edited document: a new object on every change (an undo history's present). */
  draft: (state: S) => unknown
  /** Whether the draft is what the server holds. */
  isSaved: (state: S) => boolean
  isSaving: (state: S) => boolean
  /** Sends the draft; resolves once the server answered (false on failure). */
  save: (state: S) => Promise<boolean>
}

/**
 * Autosave shared by the editors: 15 s after the last change, when the tab is hidden and
 * before an Inertia visit (which waits for the save, then goes on). While unsaved changes
 * exist the browser asks before leaving the page.
 */
export function useStoreAutosave<S>(store: StoreApi<S>, adapter: AutosaveAdapter<S>) {
  // Callers may pass an inline object: the effect must not restart on each render.
  const adapterRef = useRef(adapter)
  adapterRef.current = adapter

  useEffect(() => {
    const read = () => adapterRef.current
    if (read().readOnly(store.getState())) return
    let timer: ReturnType<typeof setTimeout> | null = null
    const isDirty = () => !read().isSaved(store.getState())
    const saveNow = () => {
      if (timer) clearTimeout(timer)
      timer = null
      return read().save(store.getState())
    }

    const unsubscribe = store.subscribe((state, previous) => {
      const { draft, isSaved } = read()
      if (draft(state) === draft(previous)) return
      if (timer) clearTimeout(timer)
      timer = isSaved(state) ? null : setTimeout(saveNow, AUTOSAVE_DEBOUNCE_MS)
    })

    const onVisibility = () => {
      if (document.visibilityState === 'hidden' && isDirty()) void saveNow()
    }
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!isDirty() && !read().isSaving(store.getState())) return
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
