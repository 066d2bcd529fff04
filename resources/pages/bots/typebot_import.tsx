import { useRef, useState, type DragEvent, type FormEvent } from 'react'
import { Head, Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CheckCircle2Icon, UploadIcon, XCircleIcon } from 'lucide-react'
import type { ImportedBotReport, ImportSetReport } from '#shared/bot/import_report'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { Button, buttonVariants } from '~/components/ui/button'
import { FieldError, Label } from '~/components/ui/label'
import { HttpError, jsonFetch } from '~/lib/http'
import { translateServerMessage } from '~/lib/i18n'
import { cn } from '~/lib/utils'

const ACCEPTED = /\.(json|zip)$/i

/**
 * "Import from Typebot": several exported bots at once (files or zip archives), then the
 * report of each: where it went and what did not carry over (docs/migrating-from-typebot.md).
 */
export default function TypebotImport() {
  const { t } = useTranslation()
  const [files, setFiles] = useState<File[]>([])
  const [error, setError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const [importing, setImporting] = useState(false)
  const [report, setReport] = useState<ImportSetReport | null>(null)
  const inputRef = useRef<HTMLInputElement>(null)

  function choose(list: FileList | null | undefined) {
    const chosen = Array.from(list ?? [])
    if (chosen.some((file) => !ACCEPTED.test(file.name))) {
      setError(t('typebotImport.wrongType'))
      setFiles([])
      return
    }
    setError(null)
    setFiles(chosen)
  }

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setDragging(false)
    if (inputRef.current && event.dataTransfer.files.length) {
      inputRef.current.files = event.dataTransfer.files
    }
    choose(event.dataTransfer.files)
  }

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (files.length === 0) {
      setError(t('typebotImport.required'))
      return
    }
    const body = new FormData()
    for (const file of files) body.append('files[]', file)
    setImporting(true)
    setError(null)
    try {
      setReport(await jsonFetch<ImportSetReport>('/api/bots/import-set', { method: 'POST', body }))
    } catch (caught) {
      setError(caught instanceof HttpError ? caught.message : t('common.somethingWentWrong'))
    } finally {
      setImporting(false)
    }
  }

  return (
    <AppLayout>
      <Head title={t('typebotImport.title')} />
      <PageHeader
        title={t('typebotImport.title')}
        description={t('typebotImport.description')}
        actions={
          <Link href="/bots" className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
            {t('typebotImport.backToBots')}
          </Link>
        }
      />
      <div className="grid max-w-4xl gap-6 p-6">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor="typebot-import-files">{t('typebotImport.filesLabel')}</Label>
            <label
              htmlFor="typebot-import-files"
              data-testid="typebot-import-dropzone"
              onDragOver={(event) => {
                if (!Array.from(event.dataTransfer.types).includes('Files')) return
                event.preventDefault()
                setDragging(true)
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
              className={cn(
                'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed px-4 py-8 text-center text-sm text-muted-foreground transition-colors has-[input:focus-visible]:ring-[3px] has-[input:focus-visible]:ring-ring/50 hover:bg-accent/50',
                dragging && 'border-primary bg-primary/5 text-foreground',
                error && 'border-destructive/60'
              )}
            >
              <UploadIcon aria-hidden className="size-6" />
              {files.length > 0 ? (
                <span
                  className="font-medium break-all text-foreground"
                  data-testid="typebot-import-chosen"
                >
                  {t('typebotImport.chosen', {
                    count: files.length,
                    names: files.map((f) => f.name).join(', '),
                  })}
                </span>
              ) : (
                <span>{t('typebotImport.dropzone')}</span>
              )}
              <input
                ref={inputRef}
                id="typebot-import-files"
                data-testid="typebot-import-files"
                type="file"
                multiple
                accept=".json,.zip,application/json,application/zip"
                className="sr-only"
                onChange={(event) => choose(event.target.files)}
                aria-invalid={!!error}
                aria-describedby={error ? 'typebot-import-error' : undefined}
              />
            </label>
            <FieldError id="typebot-import-error">{error}</FieldError>
          </div>
          <div>
            <Button type="submit" disabled={importing} data-testid="typebot-import-submit">
              {importing ? t('typebotImport.importing') : t('typebotImport.submit')}
            </Button>
          </div>
        </form>
        {report && <Report report={report} />}
      </div>
    </AppLayout>
  )
}

function Report({ report }: { report: ImportSetReport }) {
  const { t } = useTranslation()
  const imported = report.bots.filter((bot) => bot.status === 'imported').length
  return (
    <section
      className="grid gap-3"
      aria-labelledby="typebot-import-report"
      data-testid="typebot-import-report"
    >
      <h2 id="typebot-import-report" className="text-lg font-semibold" role="status">
        {t('typebotImport.summary', { imported, total: report.bots.length })}
      </h2>
      <ul className="grid gap-3">
        {report.bots.map((bot, index) => (
          <BotReport key={`${bot.file}-${index}`} bot={bot} />
        ))}
      </ul>
    </section>
  )
}

function BotReport({ bot }: { bot: ImportedBotReport }) {
  const { t } = useTranslation()
  const ok = bot.status === 'imported'
  return (
    <li className="rounded-lg border p-4" data-testid="typebot-import-bot" data-status={bot.status}>
      <div className="flex flex-wrap items-center gap-2">
        {ok ? (
          <CheckCircle2Icon aria-hidden className="size-4 text-green-600" />
        ) : (
          <XCircleIcon aria-hidden className="size-4 text-destructive" />
        )}
        <span className="font-medium">{bot.name ?? bot.file}</span>
        <span className="text-xs break-all text-muted-foreground">{bot.file}</span>
      </div>
      {!ok && bot.error && (
        <p className="mt-2 text-sm text-destructive">{translateServerMessage(bot.error)}</p>
      )}
      {ok && (
        <div className="mt-2 grid gap-1 text-sm">
          <p>
            {bot.originalId && bot.originalId !== bot.botId
              ? t('typebotImport.newId', { id: bot.botId, original: bot.originalId })
              : t('typebotImport.sameId', { id: bot.botId })}{' '}
            <Link
              href={`/bots/${bot.botId}/edit`}
              className="text-primary underline-offset-4 hover:underline"
            >
              {t('typebotImport.open')}
            </Link>
          </p>
          {bot.notCarried.length === 0 ? (
            <p className="text-muted-foreground" data-testid="typebot-import-complete">
              {t('typebotImport.everythingCarried')}
            </p>
          ) : (
            <>
              <p className="font-medium">{t('typebotImport.notCarried')}</p>
              <ul className="list-disc ps-5" data-testid="typebot-import-not-carried">
                {bot.notCarried.map((item, index) => (
                  <li key={index}>
                    {t(`typebotImport.kinds.${item.kind}`, { what: item.what })}
                    {item.where ? ` (${t('typebotImport.inGroup', { group: item.where })})` : ''}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </li>
  )
}
