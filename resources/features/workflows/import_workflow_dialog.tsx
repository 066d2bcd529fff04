import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react'
import { useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { UploadIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { FieldError, Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { cn } from '~/lib/utils'
import { visitSucceeded } from '~/features/bots/types'

function isJsonFile(file: File) {
  return /\.json$/i.test(file.name) || file.type === 'application/json'
}

/** Imports a workflow file (what "Export" writes) into the current workspace. */
export function ImportWorkflowDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const form = useForm<{ file: File | null }>({ file: null })
  const [localError, setLocalError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const error = localError ?? form.errors.file

  useEffect(() => {
    if (open) return
    form.reset()
    form.clearErrors()
    setLocalError(null)
  }, [open])

  function choose(file: File | null | undefined) {
    form.clearErrors()
    if (file && !isJsonFile(file)) {
      setLocalError(t('workflowList.import.wrongType'))
      form.setData('file', null)
      return
    }
    setLocalError(null)
    form.setData('file', file ?? null)
  }

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setDragging(false)
    const files = event.dataTransfer.files
    if (inputRef.current && files.length) inputRef.current.files = files
    choose(files[0])
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    if (!form.data.file) {
      setLocalError(t('workflowList.import.required'))
      return
    }
    form.post('/workflows/import', {
      forceFormData: true,
      preserveScroll: true,
      // Kept open (with its file) when the server refuses the file.
      preserveState: true,
      onSuccess: (page) => visitSucceeded(page) && onOpenChange(false),
    })
  }

  const percent = form.progress?.percentage

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg" data-testid="import-workflow-dialog">
        <DialogHeader>
          <DialogTitle>{t('workflowList.import.title')}</DialogTitle>
          <DialogDescription>{t('workflowList.import.description')}</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-2">
            <Label htmlFor="import-workflow-file">{t('workflowList.import.fileLabel')}</Label>
            <label
              htmlFor="import-workflow-file"
              data-dragging={dragging || undefined}
              onDragOver={(event) => {
                if (!Array.from(event.dataTransfer.types).includes('Files')) return
                event.preventDefault()
                event.dataTransfer.dropEffect = 'copy'
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
              {form.data.file ? (
                <span className="font-medium break-all text-foreground">
                  {t('workflowList.import.chosen', { name: form.data.file.name })}
                </span>
              ) : (
                <span>{t('workflowList.import.dropzone')}</span>
              )}
              <input
                ref={inputRef}
                id="import-workflow-file"
                data-testid="import-workflow-file"
                type="file"
                accept=".json,application/json"
                className="sr-only"
                onChange={(event) => choose(event.target.files?.[0])}
                aria-invalid={!!error}
                aria-describedby={error ? 'import-workflow-file-error' : undefined}
              />
            </label>
            <FieldError id="import-workflow-file-error">{error}</FieldError>
            {form.processing && (
              <div
                role="progressbar"
                aria-label={t('workflowList.import.importing')}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={percent}
                className="h-1.5 overflow-hidden rounded-full bg-muted"
              >
                <div
                  className={cn(
                    'h-full bg-primary transition-[width]',
                    percent === undefined && 'w-1/3 animate-pulse'
                  )}
                  style={percent === undefined ? undefined : { width: `${percent}%` }}
                />
              </div>
            )}
          </div>
          <DialogFooter>
            <Button type="submit" data-testid="import-workflow-submit" disabled={form.processing}>
              {form.processing
                ? t('workflowList.import.importing')
                : t('workflowList.import.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
