import { useEffect } from 'react'
import i18n from 'i18next'
import type { StoreApi } from 'zustand'
import { HttpError, errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import type { BotEditorState } from './bot_editor_store'
import type { PublishedContent } from './types'

/**
 * The published version as the server holds it, asked again when the editor's tab comes back
 * to the foreground: another tab or a teammate may have published meanwhile, and the
 * "unpublished changes" mark compares the draft with it. A failed fetch says so ("Could not fetch
 * published bot"); a bot gone meanwhile is left to the next save.
 */
export function usePublishedRefetch(store: StoreApi<BotEditorState>, enabled: boolean) {
  useEffect(() => {
    if (!enabled) return
    let controller: AbortController | null = null
    async function refetch() {
      if (document.visibilityState !== 'visible') return
      controller?.abort()
      controller = new AbortController()
      try {
        const { published } = await jsonFetch<{ published: PublishedContent | null }>(
          `/api/v1/bots/${store.getState().botId}/published`,
          { signal: controller.signal }
        )
        store.getState().setPublished(published)
      } catch (error) {
        if ((error as Error).name === 'AbortError') return
        if (error instanceof HttpError && error.status === 404) return
        showToast('error', i18n.t('fetchErrors.publishedBot'), errorDescription(error))
      }
    }
    const onVisibility = () => void refetch()
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      document.removeEventListener('visibilitychange', onVisibility)
      controller?.abort()
    }
  }, [store, enabled])
}
