import { useTranslation } from 'react-i18next'
import { CopyIcon, LinkIcon } from 'lucide-react'
import type { WorkflowBlock } from '#shared/workflow/types'
import { isShown } from '../../../app/plugins/fields'
import { Button } from '~/components/ui/button'
import { showToast } from '~/lib/toast'
import { copyText } from '~/hooks/use_copy'
import type { ExposedUrl } from './types'

/** The endpoint of each kind (start/routes/workflow_runs.ts); {runId} is filled by the caller. */
export function exposedUrlOf(
  kind: ExposedUrl['kind'],
  appUrl: string,
  workflowId: string,
  nodeId: string
) {
  const base = `${appUrl.replace(/\/$/, '')}/api/v1/workflows/${encodeURIComponent(workflowId)}`
  if (kind === 'webhook') return `${base}/webhook`
  if (kind === 'event') return `${base}/events/${encodeURIComponent(nodeId)}`
  return `${base}/webhook/runs/{runId}`
}

/** Quotes a value for a POSIX shell line (the example call is pasted into a terminal). */
function shellQuote(value: string) {
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/** A curl line calling the URL as the node expects it (method, secret header); none for events. */
export function exampleCall(url: ExposedUrl, address: string, options: Record<string, unknown>) {
  if (url.kind === 'event') return undefined
  const method =
    (url.methodOption && typeof options[url.methodOption] === 'string'
      ? (options[url.methodOption] as string)
      : undefined) ?? 'POST'
  const secret =
    url.secretOption && typeof options[url.secretOption] === 'string'
      ? (options[url.secretOption] as string)
      : ''
  const parts = ['curl', '-X', method, shellQuote(address)]
  if (secret && url.secretHeader) parts.push('-H', shellQuote(`${url.secretHeader}: ${secret}`))
  if (method !== 'GET') {
    parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote('{}'))
  }
  return parts.join(' ')
}

/**
 * The URL a node is called at (a webhook or event trigger, a wait resumed by a call), with
 * a copy button and how to call it, so builders need not assemble it from the docs.
 */
export function NodeUrl({
  url,
  block,
  appUrl,
  workflowId,
}: {
  url: ExposedUrl
  block: WorkflowBlock
  appUrl: string
  workflowId: string
}) {
  const { t } = useTranslation()
  const options = (block.options ?? {}) as Record<string, unknown>
  if (!isShown(url.showIf, options, options)) return null
  const address = exposedUrlOf(url.kind, appUrl, workflowId, block.id)
  const call = exampleCall(url, address, options)

  async function copy(text: string) {
    if (await copyText(text)) showToast('success', t('workflowEditor.url.copied'))
    else showToast('error', t('workflowEditor.url.copyFailed'))
  }

  return (
    <section
      className="grid gap-2 rounded-lg border bg-muted/30 p-3"
      data-testid="node-url"
      data-kind={url.kind}
    >
      <h3 className="flex items-center gap-1.5 text-sm font-semibold">
        <LinkIcon className="size-3.5" aria-hidden />
        {t(`workflowEditor.url.title.${url.kind}`)}
      </h3>
      <div className="flex items-start gap-2">
        <code
          className="min-w-0 flex-1 rounded-md border bg-background px-2 py-1.5 font-mono text-xs break-all select-all"
          data-testid="node-url-value"
        >
          {address}
        </code>
        <Button
          type="button"
          variant="outline"
          size="icon-sm"
          className="shrink-0"
          data-testid="node-url-copy"
          aria-label={t('workflowEditor.url.copy')}
          title={t('workflowEditor.url.copy')}
          onClick={() => void copy(address)}
        >
          <CopyIcon className="size-3.5" />
        </Button>
      </div>
      {url.hint && (
        <p className="text-xs text-muted-foreground" data-testid="node-url-hint">
          {url.hint}
        </p>
      )}
      {call && (
        <div className="grid gap-1">
          <div className="flex items-center justify-between gap-2">
            <span className="text-xs font-medium text-muted-foreground">
              {t('workflowEditor.url.example')}
            </span>
            <button
              type="button"
              data-testid="node-url-copy-call"
              onClick={() => void copy(call)}
              className="rounded px-1 text-xs text-primary outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring/50"
            >
              {t('workflowEditor.url.copyCall')}
            </button>
          </div>
          <pre
            className="overflow-x-auto rounded-md border bg-background px-2 py-1.5 font-mono text-[11px] whitespace-pre-wrap break-all"
            data-testid="node-url-call"
          >
            {call}
          </pre>
        </div>
      )}
    </section>
  )
}
