import { useEffect, useMemo, useRef, useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { FileIcon, Upload, X } from 'lucide-react'
import {
  ChatApiError,
  chatErrorText,
  type ChatInputProps,
  cn,
  InputError,
  InputRow,
  optionFlag,
  optionText,
  sanitizeHtml,
  SendButton,
  useAutoFocus,
} from '#sdk/viewer'

function formatSize(bytes: number, language: string) {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: units[unit],
    unitDisplay: 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value)
}

export default function FileInput({ input, disabled, onSubmit, upload }: ChatInputProps) {
  const { t, i18n } = useTranslation()
  const options = input.options
  const multiple = optionFlag(options, 'isMultipleAllowed') === true
  const required = optionFlag(options, 'isRequired') !== false
  const [files, setFiles] = useState<File[]>([])
  const [progress, setProgress] = useState<number | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [dragging, setDragging] = useState(false)
  const fileRef = useRef<HTMLInputElement>(null)
  const zoneRef = useAutoFocus<HTMLButtonElement>()
  const abortRef = useRef<AbortController | null>(null)
  const uploading = progress !== undefined
  const busy = disabled || uploading

  useEffect(() => () => abortRef.current?.abort(), [])

  // The builder's placeholder may hold <strong> and <br>; sanitised like any bot HTML.
  const placeholderHtml = useMemo(() => {
    const custom = optionText(options, 'labels.placeholder')
    return custom ? sanitizeHtml(custom) : undefined
  }, [options])

  const uploadAll = async (chosen: File[]) => {
    if (chosen.length === 0 || disabled) return
    setError(undefined)
    const controller = new AbortController()
    abortRef.current = controller
    const total = chosen.reduce((sum, file) => sum + file.size, 0) || 1
    const loaded = chosen.map(() => 0)
    setProgress(0)
    try {
      const urls = await Promise.all(
        chosen.map((file, index) =>
          upload(
            file,
            (event) => {
              loaded[index] = event.loaded
              const sum = loaded.reduce((a, b) => a + b, 0)
              setProgress(Math.min(100, Math.round((sum / total) * 100)))
            },
            controller.signal
          )
        )
      )
      const display =
        urls.length === 1
          ? (optionText(options, 'labels.success.single') ?? t('viewer.file.uploadedOne'))
          : (optionText(options, 'labels.success.multiple')?.replace(
              '{total}',
              String(urls.length)
            ) ?? t('viewer.file.uploadedMany', { total: urls.length }))
      onSubmit({ text: urls.join(', '), attachedFileUrls: urls, display })
    } catch (caught) {
      if (controller.signal.aborted) return
      const tooLarge = caught instanceof ChatApiError && caught.status === 413
      setError(
        chatErrorText(caught, tooLarge ? t('viewer.file.tooLarge') : t('viewer.file.failed'))
      )
    } finally {
      if (!controller.signal.aborted) setProgress(undefined)
    }
  }

  const choose = (list: FileList | null) => {
    const chosen = list ? Array.from(list) : []
    if (chosen.length === 0) return
    if (!multiple) {
      void uploadAll(chosen.slice(0, 1))
      return
    }
    setFiles((previous) => {
      const names = new Set(previous.map((file) => `${file.name}:${file.size}`))
      return [...previous, ...chosen.filter((file) => !names.has(`${file.name}:${file.size}`))]
    })
  }

  const onDrop = (event: DragEvent) => {
    event.preventDefault()
    setDragging(false)
    if (!busy) choose(event.dataTransfer.files)
  }

  return (
    <InputRow>
      <div className="flex w-full flex-col items-stretch gap-2" data-input-type={input.type}>
        <input
          ref={fileRef}
          type="file"
          multiple={multiple}
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          onChange={(event) => {
            choose(event.target.files)
            event.target.value = ''
          }}
        />
        <button
          ref={zoneRef}
          type="button"
          disabled={busy}
          onClick={() => fileRef.current?.click()}
          onDragOver={(event) => {
            event.preventDefault()
            setDragging(true)
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          className={cn(
            'fc-input flex min-h-32 w-full flex-col items-center justify-center gap-2 border-2 border-dashed border-current/30 p-4 text-center text-sm disabled:cursor-not-allowed',
            dragging && 'outline-2 outline-(--fc-button-bg)'
          )}
        >
          <Upload className="size-6 opacity-70" aria-hidden />
          {placeholderHtml ? (
            <span dangerouslySetInnerHTML={{ __html: placeholderHtml }} />
          ) : (
            <span>{multiple ? t('viewer.file.dropMany') : t('viewer.file.dropOne')}</span>
          )}
        </button>

        {multiple && files.length > 0 && (
          <ul className="grid gap-1" aria-label={t('viewer.file.selected')}>
            {files.map((file, index) => (
              <li
                key={`${file.name}:${file.size}`}
                className="fc-input flex items-center gap-2 px-3 py-1.5 text-sm"
              >
                <FileIcon className="size-4 shrink-0 opacity-70" aria-hidden />
                <span className="min-w-0 flex-1 truncate">{file.name}</span>
                <span className="shrink-0 text-xs opacity-70">
                  {formatSize(file.size, i18n.language)}
                </span>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => setFiles((previous) => previous.filter((_, i) => i !== index))}
                  aria-label={t('viewer.file.remove', { name: file.name })}
                  className="rounded p-0.5 opacity-70 hover:opacity-100"
                >
                  <X className="size-4" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}

        {uploading && (
          <div
            role="progressbar"
            aria-label={t('viewer.file.uploading')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="h-2 w-full overflow-hidden rounded-full bg-black/10"
          >
            <div
              className="h-full bg-(--fc-button-bg) transition-[width]"
              style={{ width: `${progress}%` }}
            />
          </div>
        )}

        <InputError>{error}</InputError>

        <div className="flex flex-wrap justify-end gap-2">
          {!required && (
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                onSubmit({ text: optionText(options, 'labels.skip') ?? t('viewer.file.skip') })
              }
              className="fc-button-outline h-10 px-4 text-sm font-medium disabled:opacity-60"
            >
              {optionText(options, 'labels.skip') ?? t('viewer.file.skip')}
            </button>
          )}
          {multiple && files.length > 0 && (
            <>
              <button
                type="button"
                disabled={busy}
                onClick={() => setFiles([])}
                className="fc-button-outline h-10 px-4 text-sm font-medium disabled:opacity-60"
              >
                {optionText(options, 'labels.clear') ?? t('viewer.file.clear')}
              </button>
              <SendButton
                type="button"
                onClick={() => void uploadAll(files)}
                label={optionText(options, 'labels.button') ?? t('viewer.file.upload')}
                sending={busy}
              />
            </>
          )}
        </div>
      </div>
    </InputRow>
  )
}
