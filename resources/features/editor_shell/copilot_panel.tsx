import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { BotIcon, EyeIcon, SendIcon, SparklesIcon, Undo2Icon, XIcon } from 'lucide-react'
import {
  COPILOT_MESSAGE_MAX_LENGTH,
  isSendable,
  type CopilotMessageDto,
  type CopilotReplyDto,
  type CopilotStateDto,
} from '#shared/copilot'
import { UNLIMITED } from '#shared/plans'
import type { ChangeKind } from '#shared/history/diff'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { Textarea } from '~/components/ui/textarea'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { cn } from '~/lib/utils'
import type { HistoryAdapter, HistoryVersion } from './history_panel'

/**
 * The AI copilot's chat, shared by the bot and workflow editors (docs/copilot.md): the
 * server's model edits the document through tool calls and saves each change as a version
 * of the history; the panel shows the conversation, puts the change on the canvas, and
 * previews the version a reply made. In a shared draft the change arrives as the copilot's
 * (docs/editor.md "The copilot in a shared draft"): Ctrl+Z leaves it, the reply's Undo
 * reverts exactly it. Without one (the shared draft unreachable), the saved document is put
 * on the canvas as one step of the store's history, which Ctrl+Z and Undo take back.
 */

export interface CopilotEditorAdapter<S> {
  /** Where the conversation lives: `/api/workflows/{id}` or `/api/bots/{id}`. */
  apiBase: string
  readOnly: boolean
  /** Saves the builder's pending edits first, so the copilot works on what they see. */
  flush: () => Promise<boolean>
  /**
   * Puts the copilot's change on the canvas: through the shared draft with its update, or the
   * document it saved as one step of the store's history. False: the change arrives through
   * the shared draft as a change of another's, which the panel cannot undo.
   */
  apply: (document: unknown, coeditUpdate: string | null) => boolean
  /** Takes back the change `apply` put on the canvas. */
  undo: (coeditUpdate: string | null) => void
  /** The editor's history adapter: versions, their diff and a read-only canvas. */
  history: HistoryAdapter<S>
}

type Load =
  | { state: 'loading' }
  | { state: 'error'; message: string }
  | { state: 'loaded'; data: CopilotStateDto }

function Message({
  message,
  onPreview,
  onUndo,
  canUndo,
}: {
  message: CopilotMessageDto
  onPreview: (message: CopilotMessageDto) => void
  onUndo: () => void
  canUndo: boolean
}) {
  const { t } = useTranslation()
  const mine = message.role === 'USER'
  return (
    <li className={cn('flex flex-col gap-1', mine ? 'items-end' : 'items-start')}>
      <div
        data-testid={mine ? 'copilot-user-message' : 'copilot-assistant-message'}
        className={cn(
          'max-w-[90%] rounded-2xl px-3 py-2 text-sm whitespace-pre-wrap break-words',
          mine ? 'bg-primary text-primary-foreground' : 'bg-muted'
        )}
      >
        {message.content}
      </div>
      {message.showVersionCard && message.versionId && (
        <div
          data-testid="copilot-version-card"
          className="flex w-[90%] flex-wrap items-center gap-2 rounded-lg border bg-background px-3 py-2 text-xs"
        >
          <BotIcon className="size-4 text-muted-foreground" aria-hidden />
          <span className="min-w-0 flex-1 font-medium">
            {t('copilot.versionCard', { name: message.versionName ?? '' })}
          </span>
          <Button
            size="sm"
            variant="ghost"
            className="h-7"
            data-testid="copilot-preview"
            onClick={() => onPreview(message)}
          >
            <EyeIcon aria-hidden /> {t('copilot.preview')}
          </Button>
          {canUndo && (
            <Button
              size="sm"
              variant="ghost"
              className="h-7"
              data-testid="copilot-undo"
              onClick={onUndo}
            >
              <Undo2Icon aria-hidden /> {t('copilot.undo')}
            </Button>
          )}
        </div>
      )}
    </li>
  )
}

export function CopilotPanel<S>({
  adapter,
  onClose,
}: {
  adapter: CopilotEditorAdapter<S>
  onClose: () => void
}) {
  const { t } = useTranslation()
  const [load, setLoad] = useState<Load>({ state: 'loading' })
  const [draft, setDraft] = useState('')
  const [pending, setPending] = useState(false)
  const [credentialsId, setCredentialsId] = useState<string | null>(null)
  // The reply whose change its Undo takes back (the latest one), with its shared update.
  const [undoable, setUndoable] = useState<{ id: number; update: string | null } | null>(null)
  const [preview, setPreview] = useState<{
    message: CopilotMessageDto
    version?: HistoryVersion<S>
    diff?: Record<string, ChangeKind>
    snapshot?: S
    error?: string
  } | null>(null)
  const listRef = useRef<HTMLOListElement>(null)
  const inputRef = useRef<HTMLTextAreaElement>(null)

  const fetchState = useCallback(async () => {
    setLoad({ state: 'loading' })
    try {
      // The builder's latest edits are saved first, so the manual-edit note is up to date.
      await adapter.flush()
      setLoad({
        state: 'loaded',
        data: await jsonFetch<CopilotStateDto>(`${adapter.apiBase}/copilot`, { method: 'POST' }),
      })
    } catch (error) {
      setLoad({ state: 'error', message: errorDescription(error) ?? (error as Error).message })
    }
  }, [adapter])

  useEffect(() => {
    void fetchState()
  }, [fetchState])

  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView?.({ block: 'end' })
  }, [load, pending])

  useEffect(() => {
    inputRef.current?.focus()
  }, [])

  async function send(text: string) {
    // White space alone, or a message while a reply is pending, is ignored.
    if (!isSendable(text) || pending || load.state !== 'loaded') return
    setPending(true)
    const before = load.data
    // The builder's message shows at once; the server's list replaces it with the reply.
    setLoad({
      state: 'loaded',
      data: {
        ...before,
        messages: [
          ...before.messages,
          {
            id: -1,
            role: 'USER',
            type: 'TEXT',
            content: text.trim(),
            timestamp: new Date().toISOString(),
            versionId: null,
            versionName: null,
            showVersionCard: false,
            usage: null,
          },
        ],
      },
    })
    setDraft('')
    try {
      if (!(await adapter.flush())) throw new Error(t('copilot.saveFirst'))
      const reply = await jsonFetch<CopilotReplyDto>(`${adapter.apiBase}/copilot/messages`, {
        method: 'POST',
        body: { content: text.trim(), ...(credentialsId ? { credentialsId } : {}) },
      })
      setLoad({ state: 'loaded', data: reply })
      if (reply.isUpdated && reply.document) {
        const update = reply.coeditUpdate ?? null
        const canUndo = adapter.apply(reply.document, update)
        const last = [...reply.messages].reverse().find((message) => message.showVersionCard)
        setUndoable(canUndo && last ? { id: last.id, update } : null)
      }
    } catch (error) {
      setLoad({ state: 'loaded', data: before })
      setDraft(text)
      showToast(
        'error',
        t('copilot.errors.send'),
        errorDescription(error) ?? (error as Error).message
      )
    } finally {
      setPending(false)
      inputRef.current?.focus()
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault()
    void send(draft)
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      void send(draft)
    }
    if (event.key === 'Escape') onClose()
  }

  async function openPreview(message: CopilotMessageDto) {
    setPreview({ message })
    try {
      const versions = await adapter.history.list()
      const index = versions.findIndex((version) => version.id === message.versionId)
      if (index === -1) throw new Error(t('copilot.errors.versionGone'))
      const version = versions[index]
      const before = versions[index + 1]
      if (!before) return setPreview({ message, version, snapshot: version.snapshot })
      setPreview({
        message,
        version,
        snapshot: adapter.history.merge(before.snapshot, version.snapshot),
        diff: adapter.history.diff(before.snapshot, version.snapshot).byId,
      })
    } catch (error) {
      setPreview({ message, error: errorDescription(error) ?? (error as Error).message })
    }
  }

  const data = load.state === 'loaded' ? load.data : null
  const usage = data?.usage
  const lastSuggestion = data?.messages.at(-1)?.type === 'SUGGESTION' ? data.messages.at(-1) : null
  const noProvider = data !== null && data.credentials.length === 0

  return (
    <aside
      data-testid="copilot-panel"
      aria-label={t('copilot.title')}
      className="absolute inset-y-0 right-0 z-30 flex w-full flex-col border-l bg-background shadow-xl sm:w-96"
    >
      <header className="flex items-center gap-2 border-b px-3 py-2">
        <SparklesIcon className="size-4 text-primary" aria-hidden />
        <h2 className="text-sm font-semibold">{t('copilot.title')}</h2>
        {usage && (
          <span data-testid="copilot-usage" className="ml-auto text-xs text-muted-foreground">
            {usage.messagesLimit === UNLIMITED
              ? t('copilot.usageUnlimited', { count: usage.totalMessages })
              : t('copilot.usage', { count: usage.totalMessages, limit: usage.messagesLimit })}
          </span>
        )}
        <Button
          size="icon"
          variant="ghost"
          className={cn('size-8', !usage && 'ml-auto')}
          aria-label={t('copilot.close')}
          data-testid="copilot-close"
          onClick={onClose}
        >
          <XIcon />
        </Button>
      </header>

      {data && data.credentials.length > 1 && (
        <div className="border-b px-3 py-2 text-xs">
          <label className="flex items-center gap-2">
            <span className="text-muted-foreground">{t('copilot.provider')}</span>
            <select
              data-testid="copilot-credential"
              className="h-7 min-w-0 flex-1 rounded-md border bg-background px-2"
              value={credentialsId ?? data.credentials[0].id}
              onChange={(event) => setCredentialsId(event.target.value)}
            >
              {data.credentials.map((credential) => (
                <option key={credential.id} value={credential.id}>
                  {credential.name} ({credential.provider}, {credential.model})
                </option>
              ))}
            </select>
          </label>
        </div>
      )}

      <div className="min-h-0 flex-1 overflow-y-auto px-3 py-3">
        {load.state === 'loading' && (
          <div className="space-y-2" aria-busy>
            <Skeleton className="h-12 w-4/5" />
            <Skeleton className="ml-auto h-8 w-3/5" />
          </div>
        )}
        {load.state === 'error' && (
          <div role="alert" className="space-y-2 text-sm">
            <p className="text-destructive">{load.message}</p>
            <Button size="sm" variant="outline" onClick={() => void fetchState()}>
              {t('copilot.retry')}
            </Button>
          </div>
        )}
        {data && (
          <ol
            ref={listRef}
            className="flex flex-col gap-3"
            aria-live="polite"
            data-testid="copilot-messages"
          >
            {data.messages
              .filter((message) => message.type === 'TEXT')
              .map((message) => (
                <Message
                  key={message.id}
                  message={message}
                  onPreview={(m) => void openPreview(m)}
                  canUndo={!adapter.readOnly && message.id === undoable?.id}
                  onUndo={() => {
                    adapter.undo(undoable?.update ?? null)
                    setUndoable(null)
                  }}
                />
              ))}
            {pending && (
              <li data-testid="copilot-pending" className="text-sm text-muted-foreground">
                <span className="animate-pulse">{t('copilot.thinking')}</span>
              </li>
            )}
          </ol>
        )}
        {lastSuggestion && !pending && (
          <div className="mt-3 flex flex-wrap gap-2" data-testid="copilot-suggestions">
            {(lastSuggestion.usage?.suggestions ?? []).map((suggestion) => (
              <Button
                key={suggestion}
                size="sm"
                variant="outline"
                className="h-auto py-1 text-left whitespace-normal"
                disabled={noProvider || adapter.readOnly}
                onClick={() => void send(suggestion)}
              >
                {suggestion}
              </Button>
            ))}
          </div>
        )}
      </div>

      {noProvider && (
        <p
          data-testid="copilot-no-provider"
          className="border-t px-3 py-2 text-xs text-muted-foreground"
        >
          {t('copilot.noProvider')}{' '}
          <a className="underline" href="/settings/account/credentials">
            {t('copilot.addCredential')}
          </a>
        </p>
      )}
      <form onSubmit={onSubmit} className="flex items-end gap-2 border-t p-3">
        <Textarea
          ref={inputRef}
          data-testid="copilot-input"
          aria-label={t('copilot.placeholder')}
          placeholder={t('copilot.placeholder')}
          value={draft}
          maxLength={COPILOT_MESSAGE_MAX_LENGTH}
          disabled={adapter.readOnly || noProvider}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          className="max-h-40 min-h-10 resize-none"
          rows={1}
        />
        <Button
          type="submit"
          size="icon"
          aria-label={t('copilot.send')}
          data-testid="copilot-send"
          disabled={pending || !isSendable(draft) || adapter.readOnly || noProvider}
        >
          <SendIcon />
        </Button>
      </form>

      <Dialog open={preview !== null} onOpenChange={(open) => !open && setPreview(null)}>
        <DialogContent className="flex h-[85dvh] max-w-[min(64rem,calc(100vw-2rem))] flex-col sm:max-w-[min(64rem,calc(100vw-2rem))]">
          <DialogHeader>
            <DialogTitle>
              {t('copilot.previewTitle', { name: preview?.message.versionName ?? '' })}
            </DialogTitle>
            <DialogDescription>{t('copilot.previewHint')}</DialogDescription>
          </DialogHeader>
          <div className="relative min-h-0 flex-1 overflow-hidden rounded-md border">
            {preview?.error && (
              <p role="alert" className="p-3 text-sm text-destructive">
                {preview.error}
              </p>
            )}
            {!preview?.error && !preview?.snapshot && <Skeleton className="size-full" />}
            {preview?.snapshot &&
              adapter.history.canvas({
                snapshot: preview.snapshot,
                diff: preview.diff,
                testId: 'copilot-preview-canvas',
              })}
          </div>
        </DialogContent>
      </Dialog>
    </aside>
  )
}

/** The button that opens the panel and the panel itself, over the right of the canvas. */
export function CopilotDock<S>({ adapter }: { adapter: CopilotEditorAdapter<S> }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  if (adapter.readOnly) return null
  if (open) return <CopilotPanel adapter={adapter} onClose={() => setOpen(false)} />
  return (
    <Button
      size="sm"
      variant="outline"
      data-testid="copilot-open"
      // Under a block's or node's settings panel (z-10, same corner): an open panel covers
      // the button rather than the button covering the panel's close button.
      className="absolute top-3 right-3 z-[5] shadow-sm"
      onClick={() => setOpen(true)}
    >
      <SparklesIcon aria-hidden /> {t('copilot.title')}
    </Button>
  )
}
