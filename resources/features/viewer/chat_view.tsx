import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  type ReactNode,
} from 'react'
import { useTranslation } from 'react-i18next'
import { RotateCw } from './icons'
import type { ChatMessage, ChatReply, StartChatResponse } from '#shared/chat/types'
import { resolveSettings, resolveTheme, type BotSettings, type BotTheme } from '#shared/bot/types'
import { cn } from '~/lib/utils'
import type { ChatClient, UploadProgress } from './chat_client'
import { ChatAvatar } from './bubbles/avatar'
import { GuestBubble, HostBubble } from './bubbles/message_bubble'
import { TypingBubble } from './bubbles/typing_bubble'
import { ChatInputSwitch } from './inputs/input_switch'
import { backgroundStyle, scopedCustomCss, themeVariables } from './theme'
import { useChatFlow, type ChatEntry } from './use_chat_flow'
import type { ScriptRunner } from './client_actions'
import { CalBooking } from './cal_booking'
import { usePrefersReducedMotion } from './use_reduced_motion'
import './chat.css'

export interface ChatViewProps {
  /** The startChat (or preview startChat) answer: the session and its first reply. */
  start: StartChatResponse
  client: ChatClient
  /** Defaults to the theme and settings the start answer carries. */
  theme?: BotTheme
  settings?: BotSettings
  /** Inside the embed's iframe: no outer spacing, same-tab redirects go to the host page. */
  embedded?: boolean
  /** Where the bot's client-side scripts run: the editor's preview passes its sandbox. */
  runScript?: ScriptRunner
  /** Every reply, the first included (the editor's preview lists their logs). */
  onReply?: (reply: ChatReply) => void
  /** Under the conversation, inside the themed container (the branding link). */
  footer?: ReactNode
  className?: string
}

const HostRow = memo(function HostRowView({
  message,
  avatar,
  avatarUrl,
}: {
  message: ChatMessage
  /** 'show' on the last bubble of a run, 'space' keeps the column, 'none' when disabled. */
  avatar: 'show' | 'space' | 'none'
  avatarUrl?: string
}) {
  return (
    <div className="fc-host-row flex min-w-0 items-end gap-2 pe-6 sm:pe-10">
      {avatar === 'show' && <ChatAvatar role="host" url={avatarUrl} />}
      {avatar === 'space' && <div className="w-8 shrink-0 sm:w-9" aria-hidden />}
      <HostBubble message={message} />
    </div>
  )
})

const GuestRow = memo(function GuestRowView({
  text,
  attachedFileUrls,
  showAvatar,
  avatarUrl,
}: {
  text: string
  attachedFileUrls?: string[]
  showAvatar: boolean
  avatarUrl?: string
}) {
  return (
    <div className="fc-guest-row flex min-w-0 items-end justify-end gap-2 ps-6 sm:ps-10">
      <GuestBubble text={text} attachedFileUrls={attachedFileUrls} />
      {showAvatar && <ChatAvatar role="guest" url={avatarUrl} />}
    </div>
  )
})

/**
 * An AI answer arriving piece by piece: the typing dots until the first piece, then the
 * text as it grows (plain text; the real bubble replaces it once the answer is complete).
 */
function StreamRow({
  text,
  avatar,
  avatarUrl,
}: {
  text: string
  avatar: 'show' | 'space' | 'none'
  avatarUrl?: string
}) {
  return (
    <div className="fc-host-row flex min-w-0 items-end gap-2 pe-6 sm:pe-10">
      {avatar === 'show' && <ChatAvatar role="host" url={avatarUrl} />}
      {avatar === 'space' && <div className="w-8 shrink-0 sm:w-9" aria-hidden />}
      {text ? (
        <div
          className="fc-host-bubble fc-streaming max-w-full min-w-0 px-4 py-2 text-[15px] leading-relaxed break-words whitespace-pre-wrap"
          data-message-type="text"
          aria-busy="true"
        >
          {text}
        </div>
      ) : (
        <TypingBubble />
      )}
    </div>
  )
}

const isHostEntry = (entry: ChatEntry | undefined) =>
  entry?.kind === 'bot' || entry?.kind === 'stream'

function NoticeRow({ entry }: { entry: Extract<ChatEntry, { kind: 'notice' }> }) {
  const { t } = useTranslation()
  return (
    <p className="fc-notice self-center rounded-md bg-black/5 px-3 py-1.5 text-center text-sm">
      {entry.url ? (
        <a href={entry.url} target="_blank" rel="noopener noreferrer" className="underline">
          {t('viewer.openLink', { url: entry.url })}
        </a>
      ) : (
        entry.text
      )}
    </p>
  )
}

function ProgressBar({ theme, value }: { theme: BotTheme; value: number }) {
  const { t } = useTranslation()
  const bar = theme.general?.progressBar
  const clamped = Math.max(0, Math.min(100, value))
  return (
    <div
      role="progressbar"
      aria-label={t('viewer.progress')}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className={cn(
        'fc-progress-bar inset-x-0 z-10 h-(--fc-progress-thickness) bg-(--fc-progress-bg)',
        bar?.position === 'fixed' ? 'fixed' : 'absolute',
        bar?.placement === 'Bottom' ? 'bottom-0' : 'top-0'
      )}
    >
      <div
        className="h-full bg-(--fc-progress-color) transition-[width] duration-500"
        style={{ width: `${clamped}%` }}
      />
    </div>
  )
}

/**
 * Keeps the newest message in view: after each change, and while content grows (images
 * loading) as long as the visitor has not scrolled up to read.
 */
function useStickToBottom(deps: unknown[]) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const contentRef = useRef<HTMLDivElement>(null)
  const pinned = useRef(true)
  const reducedMotion = usePrefersReducedMotion()

  const scrollToBottom = useCallback(
    (smooth: boolean) => {
      const element = scrollRef.current
      if (!element) return
      element.scrollTo({
        top: element.scrollHeight,
        behavior: smooth && !reducedMotion ? 'smooth' : 'auto',
      })
    },
    [reducedMotion]
  )

  useLayoutEffect(() => {
    pinned.current = true
    scrollToBottom(true)
  }, deps)

  useEffect(() => {
    const element = scrollRef.current
    const content = contentRef.current
    if (!element || !content || typeof ResizeObserver === 'undefined') return
    const onScroll = () => {
      pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 96
    }
    const observer = new ResizeObserver(() => {
      if (pinned.current) scrollToBottom(false)
    })
    observer.observe(content)
    element.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      observer.disconnect()
      element.removeEventListener('scroll', onScroll)
    }
  }, [scrollToBottom])

  return { scrollRef, contentRef }
}

export function ChatView({
  start,
  client,
  theme: themeProp,
  settings: settingsProp,
  embedded = false,
  runScript,
  onReply,
  footer,
  className,
}: ChatViewProps) {
  const { t } = useTranslation()
  const rootId = useId()
  const theme = useMemo(
    () => resolveTheme(themeProp ?? start.typebot?.theme),
    [themeProp, start.typebot?.theme]
  )
  const settings = useMemo(
    () => resolveSettings(settingsProp ?? start.typebot?.settings),
    [settingsProp, start.typebot?.settings]
  )
  const { state, submit, retry } = useChatFlow({
    start,
    client,
    settings,
    embedded,
    runScript,
    onReply,
    networkErrorText: t('viewer.error.network'),
    streamErrorText: (reason) => t('viewer.error.stream', { reason }),
  })
  const { entries, typing, input, inputKey, sending, error, progress } = state

  const style = useMemo(() => ({ ...themeVariables(theme), ...backgroundStyle(theme) }), [theme])
  const rootSelector = `[data-flowcraft-chat="${rootId}"]`
  const customCss = useMemo(
    () => scopedCustomCss(theme.customCss, rootSelector),
    [theme.customCss, rootSelector]
  )

  const hostAvatarOn = theme.chat?.hostAvatar?.isEnabled !== false
  const guestAvatarOn = theme.chat?.guestAvatar?.isEnabled === true
  const hostAvatarUrl = state.hostAvatarUrl ?? theme.chat?.hostAvatar?.url
  const guestAvatarUrl = state.guestAvatarUrl ?? theme.chat?.guestAvatar?.url

  const upload = useCallback(
    (file: File, onProgress?: (progress: UploadProgress) => void, signal?: AbortSignal) => {
      if (!input) return Promise.reject(new Error('No input'))
      return client.uploadFile(start.sessionId, input.id, file, onProgress, signal)
    },
    [client, start.sessionId, input]
  )

  const { scrollRef, contentRef } = useStickToBottom([
    entries.length,
    typing,
    inputKey,
    Boolean(input),
    error,
  ])

  const showProgress = theme.general?.progressBar?.isEnabled && progress !== undefined

  return (
    <div
      data-flowcraft-chat={rootId}
      data-testid="chat-view"
      className={cn(
        'fc-root relative flex h-full w-full flex-col items-center overflow-hidden',
        className
      )}
      style={style}
    >
      {customCss && <style>{customCss}</style>}
      {showProgress && <ProgressBar theme={theme} value={progress} />}
      <div className="fc-chat-container flex h-full min-h-0 flex-col">
        <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
          <div ref={contentRef} className="flex flex-col gap-3 px-3 pt-6 pb-6 sm:px-5">
            <div
              role="log"
              aria-live="polite"
              aria-label={t('viewer.conversation')}
              className="flex flex-col gap-2"
            >
              {entries.map((entry, index) => {
                if (entry.kind === 'stream') {
                  const next = entries[index + 1]
                  const lastOfRun = next ? !isHostEntry(next) : !typing
                  return (
                    <StreamRow
                      key={entry.key}
                      text={entry.text}
                      avatar={!hostAvatarOn ? 'none' : lastOfRun ? 'show' : 'space'}
                      avatarUrl={hostAvatarUrl}
                    />
                  )
                }
                if (entry.kind === 'bot') {
                  const next = entries[index + 1]
                  const lastOfRun = next ? !isHostEntry(next) : !typing
                  return (
                    <HostRow
                      key={entry.key}
                      message={entry.message}
                      avatar={!hostAvatarOn ? 'none' : lastOfRun ? 'show' : 'space'}
                      avatarUrl={hostAvatarUrl}
                    />
                  )
                }
                if (entry.kind === 'guest') {
                  return (
                    <GuestRow
                      key={entry.key}
                      text={entry.text}
                      attachedFileUrls={entry.attachedFileUrls}
                      showAvatar={guestAvatarOn}
                      avatarUrl={guestAvatarUrl}
                    />
                  )
                }
                if (entry.kind === 'booking') {
                  return (
                    <CalBooking
                      key={entry.key}
                      booking={entry.booking}
                      done={entry.done}
                      onBooked={entry.onBooked}
                    />
                  )
                }
                return <NoticeRow key={entry.key} entry={entry} />
              })}
              {typing && (
                <div className="flex items-end gap-2">
                  {hostAvatarOn && <ChatAvatar role="host" url={hostAvatarUrl} />}
                  <TypingBubble />
                </div>
              )}
            </div>
            {error && (
              <div
                role="alert"
                className="fc-error flex flex-wrap items-center justify-end gap-2 text-sm text-red-600"
              >
                <span>{error}</span>
                <button
                  type="button"
                  onClick={retry}
                  className="fc-button-outline inline-flex h-8 items-center gap-1.5 px-3 text-sm"
                >
                  <RotateCw className="size-3.5" aria-hidden />
                  {t('viewer.error.retry')}
                </button>
              </div>
            )}
            {input && (
              <div className={cn('pt-1', guestAvatarOn && 'pe-10 sm:pe-11')}>
                <ChatInputSwitch
                  key={inputKey}
                  input={input}
                  disabled={sending}
                  onSubmit={submit}
                  upload={upload}
                />
              </div>
            )}
          </div>
        </div>
        {footer}
      </div>
    </div>
  )
}
