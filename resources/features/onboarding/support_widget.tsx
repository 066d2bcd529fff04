import { useEffect } from 'react'
import { usePage } from '@inertiajs/react'
import { usePageProps } from '~/hooks/use_shared_props'
import type { SupportWidgetDto } from '#shared/onboarding'
import { pathOf } from './tours'

/*
 * The support chat (docs/onboarding.md): the app's own embed library, loaded from the
 * bot-viewer host like on any customer's site, shows one of this instance's published bots
 * as a bubble. The bubble outlives page changes (the shell is mounted again by each page,
 * and an open chat must not be cut); it goes when no page asks for it any more.
 */

interface EmbedApi {
  initBubble(options: {
    publicId: string
    apiHost?: string
    prefilledVariables?: Record<string, string>
  }): void
  open(): void
  unmount(): void
}

// What /embed.js defines (resources/embed/embed.ts), read from the script the viewer served.
const embed = () => (window as unknown as { Flowcraft?: EmbedApi }).Flowcraft

const scripts = new Map<string, Promise<void>>()

function loadScript(src: string) {
  let loading = scripts.get(src)
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = src
      script.async = true
      script.dataset.support = 'true'
      script.onload = () => resolve()
      script.onerror = () => {
        scripts.delete(src)
        script.remove()
        reject(new Error(`The support chat could not load from ${src}`))
      }
      document.head.appendChild(script)
    })
    scripts.set(src, loading)
  }
  return loading
}

/** What is on screen now: the same key is not mounted twice. */
let mountedKey: string | null = null
let pendingUnmount: ReturnType<typeof setTimeout> | undefined

/** The bot of the page, when the page is one of a bot's: the "bot id" of the prefill. */
function botIdOf(path: string) {
  return /^\/bots\/([^/]+)\/(?!.*\/)/.exec(path)?.[1] ?? ''
}

function keyOf(widget: SupportWidgetDto, botId: string) {
  return JSON.stringify([widget.viewerUrl, widget.publicId, widget.prefilledVariables, botId])
}

/** Opens the support chat (the help menu's "Chat with support"). */
export function openSupportChat() {
  embed()?.open()
}

export function SupportWidget() {
  const { supportWidget } = usePageProps()
  const { url } = usePage()
  const botId = botIdOf(pathOf(url))
  const key = supportWidget ? keyOf(supportWidget, botId) : null

  useEffect(() => {
    if (!supportWidget || !key) return
    clearTimeout(pendingUnmount)
    if (mountedKey === key) return undefined
    let cancelled = false
    loadScript(`${supportWidget.viewerUrl}/embed.js`)
      .then(() => {
        const api = embed()
        if (cancelled || !api) return
        api.unmount()
        api.initBubble({
          publicId: supportWidget.publicId,
          apiHost: supportWidget.viewerUrl,
          prefilledVariables: { ...supportWidget.prefilledVariables, botId },
        })
        mountedKey = key
      })
      .catch((error) => console.error('[support]', error))
    return () => {
      cancelled = true
    }
    // `key` stands for the widget's content
  }, [key])

  // Gone from the next page (an editor, a Free workspace): the bubble goes with it.
  useEffect(
    () => () => {
      pendingUnmount = setTimeout(() => {
        embed()?.unmount()
        mountedKey = null
      }, 0)
    },
    []
  )

  return null
}
