import { useEffect, useRef, useState, type DragEvent } from 'react'
import { useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  ArrowLeftIcon,
  FileJsonIcon,
  LayoutTemplateIcon,
  SparklesIcon,
  UploadIcon,
  type LucideIcon,
} from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { cn } from '~/lib/utils'
import { TemplateGallery } from './template_gallery'
import { visitSucceeded, type FolderDto } from './types'

type Step = 'choose' | 'scratch' | 'template' | 'import'

function ChoiceButton({
  icon: Icon,
  title,
  description,
  onClick,
  testId,
}: {
  icon: LucideIcon
  title: string
  description: string
  onClick: () => void
  testId: string
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      className="flex items-start gap-3 rounded-lg border bg-card p-4 text-left transition-colors outline-none hover:border-primary/60 hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
        <Icon aria-hidden className="size-5" />
      </span>
      <span className="grid gap-1">
        <span className="text-sm font-semibold">{title}</span>
        <span className="text-sm text-muted-foreground">{description}</span>
      </span>
    </button>
  )
}

function ScratchForm({ folder, onDone }: { folder: FolderDto | null; onDone: () => void }) {
  const { t } = useTranslation()
  const placeholder = t('bots.create.namePlaceholder')
  const form = useForm({ name: '' })

  function submit(event: React.FormEvent) {
    event.preventDefault()
    // An empty name takes the placeholder, in the user's language.
    form.transform((data) => ({
      name: data.name.trim() || placeholder,
      ...(folder ? { folderId: folder.id } : {}),
    }))
    form.post('/bots', {
      preserveScroll: true,
      // Kept open (with its input) when the server refuses.
      preserveState: true,
      onSuccess: (page) => visitSucceeded(page) && onDone(),
    })
  }

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <div className="grid gap-2">
        <Label htmlFor="new-bot-name">{t('bots.create.nameLabel')}</Label>
        <Input
          id="new-bot-name"
          data-testid="new-bot-name"
          value={form.data.name}
          onChange={(e) => form.setData('name', e.target.value)}
          placeholder={placeholder}
          maxLength={255}
          autoFocus
          aria-invalid={!!form.errors.name}
          aria-describedby={form.errors.name ? 'new-bot-name-error' : 'new-bot-name-hint'}
        />
        <FieldError id="new-bot-name-error">{form.errors.name}</FieldError>
        {!form.errors.name && (
          <FieldHint id="new-bot-name-hint">
            {folder
              ? t('bots.create.inFolder', { folder: folder.name })
              : t('bots.create.inDashboard')}
          </FieldHint>
        )}
      </div>
      <FieldError>{(form.errors as Record<string, string | undefined>).folderId}</FieldError>
      <DialogFooter>
        <Button type="submit" data-testid="create-bot-submit" disabled={form.processing}>
          {form.processing ? t('common.creating') : t('bots.create.submit')}
        </Button>
      </DialogFooter>
    </form>
  )
}

function isJsonFile(file: File) {
  return /\.json$/i.test(file.name) || file.type === 'application/json'
}

function ImportForm({ folder, onDone }: { folder: FolderDto | null; onDone: () => void }) {
  const { t } = useTranslation()
  const form = useForm<{ file: File | null }>({ file: null })
  const [localError, setLocalError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const error = localError ?? form.errors.file

  function choose(file: File | null | undefined) {
    form.clearErrors()
    if (!file) {
      form.setData('file', null)
      return
    }
    if (!isJsonFile(file)) {
      setLocalError(t('bots.import.wrongType'))
      form.setData('file', null)
      return
    }
    setLocalError(null)
    form.setData('file', file)
  }

  function onDrop(event: DragEvent) {
    event.preventDefault()
    setDragging(false)
    const files = event.dataTransfer.files
    // Keep the input in step with what was dropped.
    if (inputRef.current && files.length) inputRef.current.files = files
    choose(files[0])
  }

  function submit(event: React.FormEvent) {
    event.preventDefault()
    if (!form.data.file) {
      setLocalError(t('bots.import.required'))
      return
    }
    form.transform((data) => ({ file: data.file, ...(folder ? { folderId: folder.id } : {}) }))
    form.post('/bots/import', {
      forceFormData: true,
      preserveScroll: true,
      // Kept open (with its input) when the server refuses.
      preserveState: true,
      onSuccess: (page) => visitSucceeded(page) && onDone(),
    })
  }

  const percent = form.progress?.percentage

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <div className="grid gap-2">
        <Label htmlFor="import-bot-file">{t('bots.import.fileLabel')}</Label>
        <label
          htmlFor="import-bot-file"
          data-testid="import-dropzone"
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
            <span className="font-medium break-all text-foreground" data-testid="import-file-name">
              {t('bots.import.chosen', { name: form.data.file.name })}
            </span>
          ) : (
            <span>{t('bots.import.dropzone')}</span>
          )}
          <input
            ref={inputRef}
            id="import-bot-file"
            data-testid="import-bot-file"
            type="file"
            accept=".json,application/json"
            className="sr-only"
            onChange={(e) => choose(e.target.files?.[0])}
            aria-invalid={!!error}
            aria-describedby={error ? 'import-bot-file-error' : undefined}
          />
        </label>
        <FieldError id="import-bot-file-error">{error}</FieldError>
        {form.processing && (
          <div
            role="progressbar"
            aria-label={t('bots.import.importing')}
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
        <Button type="submit" data-testid="import-bot-submit" disabled={form.processing}>
          {form.processing ? t('bots.import.importing') : t('bots.import.submit')}
        </Button>
      </DialogFooter>
    </form>
  )
}

/**
 * "Create a bot" in the current folder: from scratch (a name), from a template (the
 * gallery, with a preview) or by importing a bot file.
 */
export function CreateBotDialog({
  open,
  onOpenChange,
  folder,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  folder: FolderDto | null
}) {
  const { t } = useTranslation()
  const [step, setStep] = useState<Step>('choose')

  useEffect(() => {
    if (!open) setStep('choose')
  }, [open])

  const close = () => onOpenChange(false)

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className={step === 'template' ? 'sm:max-w-5xl' : 'sm:max-w-lg'}
        data-testid="create-bot-dialog"
      >
        <DialogHeader>
          <DialogTitle>
            {step === 'scratch'
              ? t('bots.create.scratchTitle')
              : step === 'template'
                ? t('botTemplates.title')
                : step === 'import'
                  ? t('bots.create.importTitle')
                  : t('bots.create.title')}
          </DialogTitle>
          <DialogDescription>
            {step === 'scratch'
              ? t('bots.create.scratchDescription')
              : step === 'template'
                ? t('botTemplates.description')
                : step === 'import'
                  ? t('bots.create.importDescription')
                  : t('bots.create.description')}
          </DialogDescription>
        </DialogHeader>
        {step === 'choose' ? (
          <div className="grid gap-3">
            <ChoiceButton
              icon={SparklesIcon}
              title={t('bots.create.scratchTitle')}
              description={t('bots.create.scratchDescription')}
              onClick={() => setStep('scratch')}
              testId="create-from-scratch"
            />
            <ChoiceButton
              icon={LayoutTemplateIcon}
              title={t('botTemplates.title')}
              description={t('botTemplates.description')}
              onClick={() => setStep('template')}
              testId="create-from-template"
            />
            <ChoiceButton
              icon={FileJsonIcon}
              title={t('bots.create.importTitle')}
              description={t('bots.create.importDescription')}
              onClick={() => setStep('import')}
              testId="create-from-file"
            />
          </div>
        ) : (
          <>
            <Button
              variant="ghost"
              size="sm"
              className="-mt-2 justify-self-start"
              onClick={() => setStep('choose')}
              data-testid="create-bot-back"
            >
              <ArrowLeftIcon aria-hidden />
              {t('bots.create.back')}
            </Button>
            {step === 'scratch' ? (
              <ScratchForm folder={folder} onDone={close} />
            ) : step === 'template' ? (
              <TemplateGallery folder={folder} />
            ) : (
              <ImportForm folder={folder} onDone={close} />
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  )
}
