import { memo, useCallback, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ChevronDown, ChevronUp, CircleAlert, CircleCheck, Info, RotateCcw, X } from 'lucide-react'
import type {
  ChatLog,
  ChatReply,
  PreviewStartChatRequest,
  StartChatResponse,
} from '#shared/chat/types'
import { Button } from '~/components/ui/button'
import { cn } from '~/lib/utils'
import { chatErrorText, createPreviewChatClient } from './chat_client'
import { ChatSkeleton } from './chat_skeleton'
import { ChatView } from './chat_view'
import { createSandboxedScriptRunner } from './script_runner'

export interface PreviewPanelProps {
  botId: string
  /** Start at this group or event instead of the start event ("Play from here"). */
  startFrom?: PreviewStartChatRequest['startFrom']
  onClose: () => void
  /** Called when the builder restarts the preview (the panel restarts itself too). */
  onRestart?: () => void
}

interface LogRow {
  id: number
  log: ChatLog
}

type PreviewState =
  | { status: 'loading' }
  | { status: 'ready'; start: StartChatResponse }
  | { status: 'error'; message?: string }

const STATUS_ICONS = {
  success: { Icon: CircleCheck, className: 'text-green-600' },
  info: { Icon: Info, className: 'text-blue-600' },
  error: { Icon: CircleAlert, className: 'text-red-600' },
} as const

function formatDetails(details: unknown) {
  if (typeof details === 'string') return details
  try {
    return JSON.stringify(details, null, 2)
  } catch {
    return String(details)
  }
}

const LogEntry = memo(function LogEntryView({ log }: { log: ChatLog }) {
  const { t } = useTranslation()
  const { Icon, className } = STATUS_ICONS[log.status] ?? STATUS_ICONS.info
  return (
    <li data-testid="preview-log-entry" data-status={log.status} className="flex gap-2 py-1.5">
      <Icon
        className={cn('mt-0.5 size-4 shrink-0', className)}
        aria-label={t(`viewer.preview.status.${log.status}`)}
      />
      <div className="min-w-0 flex-1">
        <p className="text-sm break-words">{log.description}</p>
        {log.details !== undefined && log.details !== null && (
          <details className="mt-1">
            <summary className="cursor-pointer text-xs text-muted-foreground">
              {t('viewer.preview.details')}
            </summary>
            <pre className="mt-1 max-h-48 overflow-auto rounded bg-muted p-2 font-mono text-xs whitespace-pre-wrap">
              {formatDetails(log.details)}
            </pre>
          </details>
        )}
      </div>
    </li>
  )
})

function LogsPanel({ logs }: { logs: LogRow[] }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const errors = logs.filter((row) => row.log.status === 'error').length
  return (
    <section
      data-testid="preview-logs"
      className="flex max-h-[45%] min-h-0 flex-col border-t bg-background"
    >
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className="flex h-10 shrink-0 items-center gap-2 px-3 text-sm font-medium outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {open ? (
          <ChevronDown className="size-4" aria-hidden />
        ) : (
          <ChevronUp className="size-4" aria-hidden />
        )}
        {t('viewer.preview.logs', { total: logs.length })}
        {errors > 0 && (
          <span className="ms-auto rounded-full bg-destructive px-2 py-0.5 text-xs text-white">
            {t('viewer.preview.errors', { total: errors })}
          </span>
        )}
      </button>
      {open && (
        <div className="min-h-0 overflow-y-auto px-3 pb-2">
          {logs.length === 0 ? (
            <p className="py-2 text-sm text-muted-foreground">{t('viewer.preview.noLogs')}</p>
          ) : (
            <ol className="divide-y">
              {logs.map((row) => (
                <LogEntry key={row.id} log={row.log} />
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  )
}

let logSeed = 0

/** The editor's test chat: the draft bot in the real chat view, with its run logs. */
export function PreviewPanel({ botId, startFrom, onClose, onRestart }: PreviewPanelProps) {
  const { t } = useTranslation()
  const client = useMemo(() => createPreviewChatClient(), [])
  // The bot's client-side scripts never run in this page (it holds the builder's session).
  const scripts = useMemo(() => createSandboxedScriptRunner(), [])
  useEffect(() => scripts.dispose, [scripts])
  const [run, setRun] = useState(0)
  const [state, setState] = useState<PreviewState>({ status: 'loading' })
  const [logs, setLogs] = useState<LogRow[]>([])
  // A new object with the same target must not restart the chat.
  const startKey = JSON.stringify(startFrom ?? null)

  useEffect(() => {
    const controller = new AbortController()
    setState({ status: 'loading' })
    setLogs([])
    const from = JSON.parse(startKey) as PreviewStartChatRequest['startFrom'] | null
    client
      .startPreviewChat(
        botId,
        from ? { startFrom: from, isStreamEnabled: true } : { isStreamEnabled: true },
        controller.signal
      )
      .then((start) => !controller.signal.aborted && setState({ status: 'ready', start }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return
        setState({
          status: 'error',
          message: chatErrorText(error, '') || undefined,
        })
      })
    return () => controller.abort()
  }, [client, botId, startKey, run])

  const onReply = useCallback((reply: ChatReply) => {
    const entries = reply.logs ?? []
    if (entries.length === 0) return
    setLogs((previous) => [...previous, ...entries.map((log) => ({ id: ++logSeed, log }))])
  }, [])

  const restart = () => {
    onRestart?.()
    setRun((value) => value + 1)
  }

  return (
    <aside
      data-testid="preview-panel"
      aria-label={t('viewer.preview.title')}
      className="flex h-full w-[400px] max-w-full flex-col border-l bg-background shadow-lg"
    >
      <header className="flex h-12 shrink-0 items-center gap-2 border-b px-3">
        <h2 className="text-sm font-semibold">{t('viewer.preview.title')}</h2>
        <Button
          variant="outline"
          size="sm"
          className="ms-auto"
          onClick={restart}
          data-testid="preview-restart"
        >
          <RotateCcw aria-hidden />
          {t('viewer.preview.restart')}
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={onClose}
          aria-label={t('viewer.preview.close')}
        >
          <X aria-hidden />
        </Button>
      </header>
      <div className="min-h-0 flex-1">
        {state.status === 'loading' && <ChatSkeleton />}
        {state.status === 'error' && (
          <div
            role="alert"
            className="flex h-full flex-col items-center justify-center gap-3 p-6 text-center"
          >
            <CircleAlert className="size-8 text-destructive" aria-hidden />
            <p className="text-sm">{state.message ?? t('viewer.error.network')}</p>
            <Button variant="outline" size="sm" onClick={restart}>
              {t('viewer.error.retry')}
            </Button>
          </div>
        )}
        {state.status === 'ready' && (
          <ChatView
            key={state.start.sessionId}
            start={state.start}
            client={client}
            runScript={scripts.run}
            onReply={onReply}
          />
        )}
      </div>
      <LogsPanel logs={logs} />
    </aside>
  )
}
