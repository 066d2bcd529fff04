import { useEffect, useRef } from 'react'
import { router } from '@inertiajs/react'
import type { StoreApi } from 'zustand'

/**
 * Saved this long after the last change (docs/workflows.md "Autosave"): soon enough that a
 * reload a moment later finds the edit, long enough that typing is one save, not one a key.
 * Shorter than a 15 s delay on purpose (docs/departures.md).
 */
export const AUTOSAVE_DEBOUNCE_MS = 1_500

/** How an editor store tells the autosave what to watch and how to save. */
export interface AutosaveAdapter<S> {
  readOnly: (state: S) => boolean
  /** The edited document: a new object on every change (an undo history's present). */
  draft: (state: S) => unknown
  /** Whether the draft is what the server holds. */
  isSaved: (state: S) => boolean
  /** Sends the draft; resolves once the server answered (false on failure). */
  save: (state: S) => Promise<boolean>
  /**
   * The page is going away: sends the draft as a keepalive request (fetch with the XSRF
   * header; a beacon cannot set it). False when it cannot go that way.
   */
  saveOnLeave: (state: S) => boolean
  /**
   * The draft changed elsewhere and the builder has not chosen a side yet: a visit to
   * another page waits (docs/editor.md "Saving from two places").
   */
  conflict?: (state: S) => boolean
}

let leavingWithoutAsking = false

/**
 * Reloads the page without the leave warning: for when this person may no longer save here
 * (their access ended), so unsaved changes cannot be kept by staying.
 */
export function reloadWithoutAsking() {
  leavingWithoutAsking = true
  window.location.reload()
}

/**
 * Autosave shared by the editors: 1.5 s after the last change; when the tab is hidden or
 * the page left, at once as a keepalive request; before an Inertia visit (which waits for
 * the save, then goes on). While unsaved changes exist ("Autosave": the leave
 * warning), the browser asks before the page is closed, reloaded or left for another site:
 * the keepalive request on the way out is best effort (a browser may drop it, a draft may
 * be too large for it), and the person may rather stay until the save is done.
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

    /** Sent on the way out; false when the page should ask before leaving. */
    const saveOnLeave = () => {
      if (timer) clearTimeout(timer)
      timer = null
      return !isDirty() || read().saveOnLeave(store.getState())
    }
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') saveOnLeave()
    }
    const onPageHide = () => {
      saveOnLeave()
    }
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // Asked, the person may stay: the debounced save then goes on as if nothing happened,
      // and leaving anyway sends the draft from pagehide.
      if (leavingWithoutAsking || !isDirty()) return
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
      void saveNow().then((saved) => {
        // Leaving now would drop the edits the conflict notice asks about.
        if (!saved && read().conflict?.(store.getState())) return
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
    window.addEventListener('pagehide', onPageHide)
    window.addEventListener('beforeunload', onBeforeUnload)
    return () => {
      unsubscribe()
      removeBefore()
      if (timer) clearTimeout(timer)
      document.removeEventListener('visibilitychange', onVisibility)
      window.removeEventListener('pagehide', onPageHide)
      window.removeEventListener('beforeunload', onBeforeUnload)
    }
  }, [store])
}
