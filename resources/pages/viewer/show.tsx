import { useEffect, useMemo, useRef, useState } from 'react'
import type { StartChatResponse } from '#shared/chat/types'
import { resolveSettings, type BotSettings, type BotTheme } from '#shared/bot/types'
import { translateServerMessage } from '~/lib/i18n_core'
import { BrandingLink } from '~/features/viewer/branding_link'
import { ChatApiError, createPublicChatClient } from '~/features/viewer/chat_client'
import { ChatSkeleton } from '~/features/viewer/chat_skeleton'
import { ChatView } from '~/features/viewer/chat_view'
import { ViewerError, type ViewerErrorKind } from '~/features/viewer/viewer_error'
import {
  queryLanguage,
  readRememberedResult,
  rememberResult,
  takeQueryVariables,
} from '~/features/viewer/remember_user'

export interface ViewerProps {
  publicId: string
  bot: { id: string; name: string; theme: BotTheme; settings: BotSettings }
  embedded: boolean
}

type PageState =
  | { status: 'loading' }
  | { status: 'ready'; start: StartChatResponse }
  | { status: 'error'; kind: ViewerErrorKind; message?: string }

function errorKind(error: unknown): ViewerErrorKind {
  if (!(error instanceof ChatApiError)) return 'failed'
  if (error.status === 404) return 'notFound'
  // 403 also answers a website the bot does not allow: only a closed bot says so.
  if (error.status === 403 && /closed/i.test(error.message)) return 'closed'
  return 'failed'
}

/** The public bot page: the whole viewport is the chat (or the embed's iframe). */
export default function ViewerShow({ publicId, bot, embedded }: ViewerProps) {
  const client = useMemo(() => createPublicChatClient(), [])
  const settings = useMemo(() => resolveSettings(bot.settings), [bot.settings])
  const [state, setState] = useState<PageState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  // Read once: the address bar may lose its query string right after (hidden params).
  const queryVariables = useRef<{ value?: Record<string, string>; language?: string } | null>(null)

  useEffect(() => {
    if (!embedded) return
    // Inside an iframe the host page shows through where the bot has no background.
    const { body } = document
    const previous = body.style.background
    body.style.background = 'transparent'
    // Keys pressed in the chat never reach the host page: the embed closes on this message.
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && window.parent !== window) {
        window.parent.postMessage({ type: 'flowcraft:close' }, '*')
      }
    }
    window.addEventListener('keydown', onKey)
    return () => {
      body.style.background = previous
      window.removeEventListener('keydown', onKey)
    }
  }, [embedded])

  useEffect(() => {
    const controller = new AbortController()
    setState({ status: 'loading' })
    queryVariables.current ??= {
      language: queryLanguage(),
      value: takeQueryVariables(settings, (url) => window.history.replaceState(null, '', url)),
    }
    client
      .startChat(
        publicId,
        {
          resultId: readRememberedResult(publicId, settings),
          prefilledVariables: queryVariables.current.value,
          // The same keys in the same order as the early start of viewer.edge.
          language: queryVariables.current.language,
          // AI answers shown in the next bubble arrive token by token (streamMessage).
          isStreamEnabled: true,
        },
        controller.signal
      )
      .then((start) => {
        if (controller.signal.aborted) return
        if (start.chatLimitExceededError) {
          setState({
            status: 'error',
            kind: 'limit',
            message: translateServerMessage(start.chatLimitExceededError),
          })
          return
        }
        rememberResult(publicId, settings, start.resultId)
        setState({ status: 'ready', start })
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        const kind = errorKind(error)
        // Our own words for a missing bot; the server's explanation for the rest.
        const detail =
          error instanceof ChatApiError ? (error.description ?? error.message) : undefined
        setState({
          status: 'error',
          kind,
          message: kind !== 'notFound' && detail ? translateServerMessage(detail) : undefined,
        })
      })
    return () => controller.abort()
    // `attempt` restarts after a failed start; settings are read once per start.
  }, [client, publicId, attempt])

  // The same title the server wrote in <head>: the metadata's, else the bot's name.
  const title = settings.metadata?.title?.trim() || bot.name
  useEffect(() => {
    document.title = title
  }, [title])

  return (
    <div className="h-dvh w-full overflow-hidden" data-testid="viewer-page">
      {state.status === 'loading' && <ChatSkeleton theme={bot.theme} />}
      {state.status === 'error' && (
        <ViewerError
          kind={state.kind}
          message={state.message}
          onRetry={state.kind === 'failed' ? () => setAttempt((n) => n + 1) : undefined}
        />
      )}
      {state.status === 'ready' && (
        <ChatView
          start={state.start}
          client={client}
          embedded={embedded}
          className={embedded ? undefined : 'md:py-4'}
          footer={
            resolveSettings(state.start.typebot?.settings ?? bot.settings).general
              ?.isBrandingEnabled ? (
              <BrandingLink />
            ) : undefined
          }
        />
      )}
      <h1 className="sr-only">{bot.name}</h1>
    </div>
  )
}
