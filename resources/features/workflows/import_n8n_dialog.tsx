import { useEffect, useState, type FormEvent } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { FieldError, Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { jsonFetch } from '~/lib/http'
import { clientPlugin } from '~/lib/plugin_registry'
import type {
  N8nImportReportDto,
  N8nImportResponse,
  N8nNodeImportLine,
} from '#shared/workflow/n8n_import'

const STATUS_VARIANT = {
  mapped: 'success',
  partial: 'secondary',
  placeholder: 'destructive',
} as const

/**
 * "Import from n8n" (docs/migrating-from-n8n.md): paste or choose an n8n workflow, read
 * the report of what carries over, then save it and open it in the editor. Nothing is
 * saved before the builder has seen the report.
 */
export function ImportN8nDialog({
  open,
  onOpenChange,
  workspaceId,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  workspaceId: string
}) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const [report, setReport] = useState<N8nImportReportDto | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (open) return
    setText('')
    setReport(null)
    setError(null)
  }, [open])

  async function send(save: boolean) {
    if (!text.trim()) {
      setError(t('workflowList.n8n.required'))
      return
    }
    setBusy(true)
    setError(null)
    try {
      const answer = await jsonFetch<N8nImportResponse>('/api/v1/workflows/import-n8n', {
        body: { workspaceId, workflow: text, save },
      })
      setReport(answer.report)
      if (save && answer.workflowId) router.visit(`/workflows/${answer.workflowId}`)
    } catch (caught) {
      setReport(null)
      setError((caught as Error).message)
    } finally {
      setBusy(false)
    }
  }

  function check(event: FormEvent) {
    event.preventDefault()
    void send(false)
  }

  async function choose(file: File | undefined) {
    if (!file) return
    setText(await file.text())
    setReport(null)
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-h-[90vh] overflow-y-auto sm:max-w-2xl"
        data-testid="import-n8n-dialog"
      >
        <DialogHeader>
          <DialogTitle>{t('workflowList.n8n.title')}</DialogTitle>
          <DialogDescription>{t('workflowList.n8n.description')}</DialogDescription>
        </DialogHeader>
        <form onSubmit={check} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor="import-n8n-json">{t('workflowList.n8n.jsonLabel')}</Label>
            <Textarea
              id="import-n8n-json"
              data-testid="import-n8n-json"
              rows={6}
              className="font-mono text-xs"
              placeholder='{ "nodes": [...], "connections": {...} }'
              value={text}
              onChange={(event) => {
                setText(event.target.value)
                setReport(null)
              }}
              aria-invalid={!!error}
              aria-describedby={error ? 'import-n8n-error' : undefined}
            />
            <Label htmlFor="import-n8n-file" className="text-muted-foreground">
              {t('workflowList.n8n.fileLabel')}
            </Label>
            <input
              id="import-n8n-file"
              data-testid="import-n8n-file"
              type="file"
              accept=".json,application/json"
              className="text-sm"
              onChange={(event) => void choose(event.target.files?.[0])}
            />
            <FieldError id="import-n8n-error">{error}</FieldError>
          </div>
          {report && <N8nReport report={report} />}
          <DialogFooter>
            <Button
              type="submit"
              variant={report ? 'outline' : 'default'}
              data-testid="import-n8n-check"
              disabled={busy}
            >
              {t('workflowList.n8n.check')}
            </Button>
            {report && (
              <Button
                type="button"
                data-testid="import-n8n-save"
                disabled={busy}
                onClick={() => void send(true)}
              >
                {busy ? t('workflowList.import.importing') : t('workflowList.n8n.save')}
              </Button>
            )}
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function N8nReport({ report }: { report: N8nImportReportDto }) {
  const { t } = useTranslation()
  const { counts } = report
  return (
    <section
      aria-label={t('workflowList.n8n.reportLabel')}
      data-testid="import-n8n-report"
      className="grid gap-3 rounded-lg border p-3 text-sm"
    >
      <p className="font-medium">
        {t('workflowList.n8n.summary', {
          count: report.nodes.length,
          mapped: counts.mapped,
          partial: counts.partial,
          placeholder: counts.placeholder,
        })}
      </p>
      {counts.credentials > 0 && (
        <p className="text-destructive" data-testid="import-n8n-credentials">
          {t('workflowList.n8n.credentials', { count: counts.credentials })}
        </p>
      )}
      <ul className="grid gap-2">
        {report.nodes.map((line) => (
          <ReportLine key={line.name} line={line} />
        ))}
      </ul>
      {report.workflow.length > 0 && (
        <div>
          <p className="font-medium">{t('workflowList.n8n.workflowLines')}</p>
          <ul
            className="list-disc ps-5 text-muted-foreground"
            data-testid="import-n8n-workflow-lines"
          >
            {report.workflow.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </div>
      )}
    </section>
  )
}

function ReportLine({ line }: { line: N8nNodeImportLine }) {
  const { t } = useTranslation()
  const plugin = clientPlugin(line.type)
  return (
    <li
      className="grid gap-1 border-t pt-2 first:border-t-0 first:pt-0"
      data-testid="import-n8n-node"
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{line.name}</span>
        <span className="text-xs text-muted-foreground">
          {line.n8nType} → {plugin?.name ?? line.type}
        </span>
        <Badge variant={STATUS_VARIANT[line.status]}>
          {t(`workflowList.n8n.status.${line.status}`)}
        </Badge>
        {line.disabled && <Badge variant="outline">{t('workflowList.n8n.disabled')}</Badge>}
      </div>
      {line.credentials.length > 0 && (
        <p className="text-xs text-destructive">
          {t('workflowList.n8n.needsCredentials', { types: line.credentials.join(', ') })}
        </p>
      )}
      {line.lost.length > 0 && (
        <ul className="list-disc ps-5 text-xs text-muted-foreground">
          {line.lost.map((text) => (
            <li key={text}>{text}</li>
          ))}
        </ul>
      )}
    </li>
  )
}
