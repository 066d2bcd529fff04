import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PlusIcon, Trash2Icon } from 'lucide-react'
import {
  FILE_EXTENSIONS,
  MAX_SOURCE_BYTES,
  type KnowledgeSourceDto,
  type QnaPair,
} from '#shared/knowledge'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '~/components/ui/tabs'
import { errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'

type Added = (source: KnowledgeSourceDto) => void

function useSubmit(storeId: string, onAdded: Added) {
  const { t } = useTranslation()
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  async function send(body: unknown) {
    setSaving(true)
    setError(null)
    try {
      const { source } = await jsonFetch<{ source: KnowledgeSourceDto }>(
        `/vectors/${storeId}/sources`,
        { method: 'POST', body }
      )
      onAdded(source)
      showToast('success', t('knowledge.sources.added'), source.name)
      return true
    } catch (failure) {
      setError(errorDescription(failure))
      return false
    } finally {
      setSaving(false)
    }
  }
  return { saving, error, setError, send }
}

function TextSource({ storeId, onAdded }: { storeId: string; onAdded: Added }) {
  const { t } = useTranslation()
  const id = useId()
  const [name, setName] = useState('')
  const [text, setText] = useState('')
  const { saving, error, setError, send } = useSubmit(storeId, onAdded)
  return (
    <form
      className="grid gap-3"
      onSubmit={async (event) => {
        event.preventDefault()
        if (!text.trim()) return setError(t('knowledge.sources.textRequired'))
        if (await send({ type: 'TEXT', name: name.trim() || undefined, text })) {
          setName('')
          setText('')
        }
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-name`}>{t('knowledge.sources.title')}</Label>
        <Input
          id={`${id}-name`}
          value={name}
          maxLength={255}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-text`}>{t('knowledge.sources.text')}</Label>
        <Textarea
          id={`${id}-text`}
          rows={6}
          value={text}
          onChange={(e) => setText(e.target.value)}
          data-testid="source-text"
        />
        <FieldError>{error}</FieldError>
      </div>
      <div>
        <Button type="submit" size="sm" disabled={saving} data-testid="add-text-source">
          {saving ? t('knowledge.sources.adding') : t('knowledge.sources.addText')}
        </Button>
      </div>
    </form>
  )
}

function QnaSource({ storeId, onAdded }: { storeId: string; onAdded: Added }) {
  const { t } = useTranslation()
  const id = useId()
  const [pairs, setPairs] = useState<QnaPair[]>([{ question: '', answer: '' }])
  const { saving, error, setError, send } = useSubmit(storeId, onAdded)
  const update = (index: number, next: Partial<QnaPair>) =>
    setPairs((list) => list.map((pair, at) => (at === index ? { ...pair, ...next } : pair)))
  return (
    <form
      className="grid gap-3"
      onSubmit={async (event) => {
        event.preventDefault()
        const filled = pairs.filter((pair) => pair.question.trim() && pair.answer.trim())
        if (filled.length === 0) return setError(t('knowledge.sources.pairRequired'))
        if (await send({ type: 'QNA', pairs: filled })) setPairs([{ question: '', answer: '' }])
      }}
    >
      {pairs.map((pair, index) => (
        <fieldset key={index} className="grid gap-2 rounded-md border p-3">
          <legend className="px-1 text-xs text-muted-foreground">
            {t('knowledge.sources.pair', { number: index + 1 })}
          </legend>
          <Label htmlFor={`${id}-q${index}`}>{t('knowledge.sources.question')}</Label>
          <Input
            id={`${id}-q${index}`}
            value={pair.question}
            onChange={(e) => update(index, { question: e.target.value })}
          />
          <Label htmlFor={`${id}-a${index}`}>{t('knowledge.sources.answer')}</Label>
          <Textarea
            id={`${id}-a${index}`}
            rows={2}
            value={pair.answer}
            onChange={(e) => update(index, { answer: e.target.value })}
          />
          {pairs.length > 1 && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="justify-self-end"
              onClick={() => setPairs((list) => list.filter((_, at) => at !== index))}
            >
              <Trash2Icon aria-hidden />
              {t('knowledge.sources.removePair')}
            </Button>
          )}
        </fieldset>
      ))}
      <FieldError>{error}</FieldError>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => setPairs((list) => [...list, { question: '', answer: '' }])}
        >
          <PlusIcon aria-hidden />
          {t('knowledge.sources.addPair')}
        </Button>
        <Button type="submit" size="sm" disabled={saving}>
          {saving ? t('knowledge.sources.adding') : t('knowledge.sources.addQna')}
        </Button>
      </div>
    </form>
  )
}

function UrlSource({ storeId, onAdded }: { storeId: string; onAdded: Added }) {
  const { t } = useTranslation()
  const id = useId()
  const [url, setUrl] = useState('')
  const { saving, error, setError, send } = useSubmit(storeId, onAdded)
  return (
    <form
      className="grid gap-3"
      onSubmit={async (event) => {
        event.preventDefault()
        if (!/^https?:\/\/\S+$/i.test(url.trim()))
          return setError(t('knowledge.sources.urlInvalid'))
        if (await send({ type: 'URL', url: url.trim() })) setUrl('')
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-url`}>{t('knowledge.sources.url')}</Label>
        <Input
          id={`${id}-url`}
          type="url"
          placeholder="https://example.com/help"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <FieldHint>{t('knowledge.sources.urlHint')}</FieldHint>
        <FieldError>{error}</FieldError>
      </div>
      <div>
        <Button type="submit" size="sm" disabled={saving}>
          {saving ? t('knowledge.sources.adding') : t('knowledge.sources.addUrl')}
        </Button>
      </div>
    </form>
  )
}

const ACCEPT = FILE_EXTENSIONS.map((extension) => `.${extension}`).join(',')

function FileSource({ storeId, onAdded }: { storeId: string; onAdded: Added }) {
  const { t } = useTranslation()
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [files, setFiles] = useState<File[]>([])
  const { saving, error, setError, send } = useSubmit(storeId, onAdded)
  return (
    <form
      className="grid gap-3"
      onSubmit={async (event) => {
        event.preventDefault()
        if (files.length === 0) return setError(t('knowledge.sources.fileRequired'))
        const tooLarge = files.find((file) => file.size > MAX_SOURCE_BYTES)
        if (tooLarge) {
          return setError(
            t('knowledge.sources.fileTooLarge', {
              name: tooLarge.name,
              limit: MAX_SOURCE_BYTES / (1024 * 1024),
            })
          )
        }
        for (const file of files) {
          const body = new FormData()
          body.append('file', file)
          if (!(await send(body))) return
        }
        setFiles([])
        if (input.current) input.current.value = ''
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-file`}>{t('knowledge.sources.file')}</Label>
        <Input
          ref={input}
          id={`${id}-file`}
          type="file"
          multiple
          accept={ACCEPT}
          onChange={(e) => {
            setFiles([...(e.target.files ?? [])])
            setError(null)
          }}
          data-testid="source-file"
        />
        <FieldHint>
          {t('knowledge.sources.fileHint', { limit: MAX_SOURCE_BYTES / (1024 * 1024) })}
        </FieldHint>
        <FieldError>{error}</FieldError>
      </div>
      <div>
        <Button type="submit" size="sm" disabled={saving}>
          {saving ? t('knowledge.sources.uploading') : t('knowledge.sources.upload')}
        </Button>
      </div>
    </form>
  )
}

/** Adding a source: text, Q&A pairs, a web page or files. */
export function AddSource({ storeId, onAdded }: { storeId: string; onAdded: Added }) {
  const { t } = useTranslation()
  return (
    <Tabs defaultValue="TEXT" className="grid gap-3">
      <TabsList className="flex-wrap">
        <TabsTrigger value="TEXT">{t('knowledge.types.TEXT')}</TabsTrigger>
        <TabsTrigger value="QNA">{t('knowledge.types.QNA')}</TabsTrigger>
        <TabsTrigger value="URL">{t('knowledge.types.URL')}</TabsTrigger>
        <TabsTrigger value="FILE">{t('knowledge.types.FILE')}</TabsTrigger>
      </TabsList>
      <TabsContent value="TEXT">
        <TextSource storeId={storeId} onAdded={onAdded} />
      </TabsContent>
      <TabsContent value="QNA">
        <QnaSource storeId={storeId} onAdded={onAdded} />
      </TabsContent>
      <TabsContent value="URL">
        <UrlSource storeId={storeId} onAdded={onAdded} />
      </TabsContent>
      <TabsContent value="FILE">
        <FileSource storeId={storeId} onAdded={onAdded} />
      </TabsContent>
    </Tabs>
  )
}
