import { router } from '@inertiajs/react'
import i18n from 'i18next'
import { toast as sonner, type ExternalToast } from 'sonner'
import type { ToastDto } from '#shared/types'
import { translateServerMessage } from '~/lib/i18n_core'

/**
 * Toasts: 300px wide, 450px with a description; error toasts with a
 * description stay until closed.
 */
/*
 * Error toasts on screen. An error is about what the builder was doing: a later success, or
 * leaving for another page, makes it stale, so they go then (an error that stays until
 * closed otherwise follows the builder around the app).
 */
const errorToasts = new Set<string | number>()

export function dismissErrorToasts() {
  for (const id of errorToasts) sonner.dismiss(id)
  errorToasts.clear()
}

export function showToast(type: ToastDto['type'], title: string, description?: string | null) {
  if (type === 'success') dismissErrorToasts()
  const hasDescription = !!description
  const options: ExternalToast = {
    description: description || undefined,
    style: {
      width: hasDescription ? 'min(450px, calc(100vw - 32px))' : 'min(300px, calc(100vw - 32px))',
    },
  }
  if (type === 'error' && hasDescription) {
    options.duration = Number.POSITIVE_INFINITY
    options.closeButton = true
  }
  if (type === 'success') return sonner.success(title, options)
  if (type === 'error') {
    const id = sonner.error(title, {
      ...options,
      onDismiss: () => errorToasts.delete(id),
      onAutoClose: () => errorToasts.delete(id),
    })
    errorToasts.add(id)
    return id
  }
  return sonner.info(title, options)
}

/*
 * The server flashes `toast` for the next page. It is shown once: a page object seen again
 * (partial reloads keep the same object) is skipped, and pages restored from browser history
 * (back/forward) carry an old flash that must not show again.
 */
const shown = new WeakSet<object>()
let restoringFromHistory = false

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', () => {
    restoringFromHistory = true
  })
  router.on('start', (event) => {
    restoringFromHistory = false
    // A visit to another page (not a partial reload of this one) leaves its errors behind;
    // the new page's own flashed error shows after this.
    const { visit } = event.detail
    if (visit.method === 'get' && visit.only.length === 0 && !visit.preserveState) {
      dismissErrorToasts()
    }
  })
  // A visit that failed without a response (network down, server unreachable).
  router.on('exception', () => {
    showToast('error', i18n.t('common.errorTitle'), i18n.t('common.somethingWentWrong'))
  })
  try {
    const entry = performance.getEntriesByType('navigation')[0] as
      PerformanceNavigationTiming | undefined
    if (entry?.type === 'back_forward') restoringFromHistory = true
  } catch {}
}

export function showFlashToast(flash: ToastDto | null | undefined) {
  if (!flash || typeof flash !== 'object' || shown.has(flash)) return
  shown.add(flash)
  if (restoringFromHistory || !flash.title) return
  // The server writes its messages in English: show them in the user's language.
  showToast(
    flash.type,
    translateServerMessage(flash.title),
    translateServerMessage(flash.description)
  )
}
