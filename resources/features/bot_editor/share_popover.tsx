import { useEffect, useId, useState, type FormEvent } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CheckIcon, CodeXmlIcon, CopyIcon, Share2Icon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '~/components/ui/dialog'
import { Popover, PopoverContent, PopoverTrigger } from '~/components/ui/popover'
import { Separator } from '~/components/ui/separator'
import { Switch } from '~/components/ui/switch'
import { HttpError, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { usePageProps } from '~/hooks/use_shared_props'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { InvitationsSection } from './share_invitations'
import { EmbedSnippets } from './embed_snippets'
import type { BotSaveResponse } from './types'

/** publicId: only letters, digits, hyphen and dot. */
export const PUBLIC_ID_PATTERN = /^[a-zA-Z0-9.-]+$/

function origin() {
  return typeof window === 'undefined' ? '' : window.location.origin
}

/** Where visitors open bots: the viewer host (VIEWER_URL) when there is one. */
function useViewerOrigin() {
  const { viewerUrl } = usePageProps()
  return viewerUrl || origin()
}

/**
 * The share popover of the editor header: invitations, public flow toggle, public link and
 * custom domain.
 */
export function SharePopover() {
  const { t } = useTranslation()
  const headingId = useId()
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" data-testid="share-button">
          <Share2Icon /> {t('editor.share.button')}
        </Button>
      </PopoverTrigger>
      <PopoverContent
        align="end"
        className="grid max-h-[calc(100dvh-5rem)] w-[28rem] max-w-[calc(100vw-1rem)] gap-4 overflow-y-auto"
        data-testid="share-popover"
        aria-labelledby={headingId}
      >
        <h2 id={headingId} className="text-sm font-semibold">
          {t('editor.share.title')}
        </h2>
        <InvitationsSection />
        <Separator />
        <PublicFlowSection />
        <Separator />
        <PublicIdSection />
        <Separator />
        <CustomDomainSection />
        <EmbedSection />
      </PopoverContent>
    </Popover>
  )
}

function CopyButton({ text, testId, label }: { text: string; testId: string; label: string }) {
  const { t } = useTranslation()
  const [copied, setCopied] = useState(false)

  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), 2000)
    return () => clearTimeout(timer)
  }, [copied])

  async function copy() {
    try {
      await navigator.clipboard.writeText(text)
      setCopied(true)
      showToast('success', t('common.copied'))
    } catch {
      showToast('error', t('editor.share.copyFailed'))
    }
  }

  return (
    <Button
      type="button"
      variant="outline"
      size="icon"
      className="size-9 shrink-0"
      aria-label={label}
      data-testid={testId}
      onClick={copy}
    >
      {copied ? <CheckIcon /> : <CopyIcon />}
    </Button>
  )
}

function PublicFlowSection() {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const botId = useBotEditor((state) => state.botId)
  const isPublic = useBotEditor(
    (state) => state.history.present.settings.publicShare?.isEnabled ?? false
  )
  const flowLink = `${origin()}/bots/${botId}/edit`

  function toggle(checked: boolean) {
    // Saved with the content by the editor's autosave.
    api.getState().edit((bot) => ({
      ...bot,
      settings: {
        ...bot.settings,
        publicShare: { ...bot.settings.publicShare, isEnabled: checked },
      },
    }))
  }

  return (
    <section className="grid gap-3">
      <div className="flex items-center justify-between gap-3">
        <Label htmlFor="share-public-toggle">{t('editor.share.publicToggle')}</Label>
        <Switch
          id="share-public-toggle"
          data-testid="public-toggle"
          checked={isPublic}
          onCheckedChange={toggle}
        />
      </div>
      {isPublic && (
        <div className="grid gap-1.5">
          <Label htmlFor="share-flow-link" className="text-muted-foreground">
            {t('editor.share.flowLink')}
          </Label>
          <div className="flex gap-2">
            <Input
              id="share-flow-link"
              data-testid="public-flow-link"
              readOnly
              value={flowLink}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton
              text={flowLink}
              testId="copy-flow-link"
              label={t('editor.share.copyFlowLink')}
            />
          </div>
        </div>
      )}
    </section>
  )
}

type MetadataField = 'publicId' | 'customDomain'

interface FieldError {
  message: string
  upgrade: boolean
}

function toFieldError(error: unknown): FieldError {
  if (error instanceof HttpError) {
    // jsonFetch has already translated the server's message and description.
    const text =
      error.description && error.description !== error.message
        ? `${error.message}: ${error.description}`
        : error.message
    return { message: text, upgrade: error.status === 403 }
  }
  return { message: (error as Error).message, upgrade: false }
}

/** PATCHes one metadata field of the bot and writes the server's answer into the store. */
function useMetadataField(field: MetadataField) {
  const api = useBotEditorApi()
  const botId = useBotEditor((state) => state.botId)
  const stored = useBotEditor((state) => state.history.present[field] ?? '')
  const [draft, setDraft] = useState(stored)
  const [error, setError] = useState<FieldError | null>(null)
  const [busy, setBusy] = useState(false)
  useEffect(() => setDraft(stored), [stored])

  async function save(value: string | null) {
    setBusy(true)
    setError(null)
    try {
      const response = await jsonFetch<BotSaveResponse>(`/api/v1/bots/${botId}`, {
        method: 'PATCH',
        body: { [field]: value },
      })
      api.getState().syncMetadata(response.bot)
      setDraft(response.bot[field] ?? '')
      return true
    } catch (caught) {
      setError(toFieldError(caught))
      return false
    } finally {
      setBusy(false)
    }
  }

  function change(value: string) {
    setDraft(value)
    setError(null)
  }

  return { stored, draft, change, error, busy, save }
}

function FieldMessage({ id, testId, error }: { id: string; testId: string; error: FieldError }) {
  const { t } = useTranslation()
  return (
    <p id={id} role="alert" data-testid={testId} className="text-sm text-destructive">
      {error.message}
      {error.upgrade && (
        <>
          {' '}
          <Link href="/bots/plans" className="font-medium underline underline-offset-4">
            {t('editor.share.upgrade')}
          </Link>
        </>
      )}
    </p>
  )
}

function PublicIdSection() {
  const { t } = useTranslation()
  const { stored, draft, change, error, busy, save } = useMetadataField('publicId')
  const errorId = useId()
  const value = draft.trim()
  const changed = value !== stored
  const invalid = changed && !PUBLIC_ID_PATTERN.test(value)
  const shown: FieldError | null = invalid
    ? { message: t('editor.share.publicIdInvalid'), upgrade: false }
    : error
  const viewerOrigin = useViewerOrigin()
  const publicLink = stored ? `${viewerOrigin}/${stored}` : ''

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (busy || !changed || invalid) return
    if (await save(value)) showToast('success', t('editor.share.publicIdSaved'))
  }

  return (
    <form className="grid gap-1.5" onSubmit={submit} noValidate>
      <Label htmlFor="share-public-id">{t('editor.share.publicLink')}</Label>
      <div className="flex gap-2">
        <div className="flex min-w-0 flex-1 items-center rounded-md border border-input shadow-xs focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50">
          <span className="max-w-40 shrink-0 truncate pl-3 text-sm text-muted-foreground">
            {viewerOrigin}/
          </span>
          <Input
            id="share-public-id"
            data-testid="public-id-input"
            value={draft}
            maxLength={255}
            autoComplete="off"
            spellCheck={false}
            placeholder={t('editor.share.publicIdPlaceholder')}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? errorId : undefined}
            onChange={(event) => change(event.target.value)}
            className="border-0 pl-0.5 shadow-none focus-visible:ring-0"
          />
        </div>
        <Button
          type="submit"
          size="sm"
          className="h-9"
          data-testid="public-id-save"
          disabled={busy || !changed || invalid}
        >
          {t('common.save')}
        </Button>
        {publicLink && (
          <CopyButton
            text={publicLink}
            testId="copy-public-link"
            label={t('editor.share.copyPublicLink')}
          />
        )}
      </div>
      {shown ? (
        <FieldMessage id={errorId} testId="public-id-error" error={shown} />
      ) : (
        !stored && <p className="text-xs text-muted-foreground">{t('editor.share.publicIdHint')}</p>
      )}
    </form>
  )
}

function CustomDomainSection() {
  const { t } = useTranslation()
  const { stored, draft, change, error, busy, save } = useMetadataField('customDomain')
  const errorId = useId()
  const hintId = useId()
  const value = draft.trim()
  const changed = value !== stored

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (busy || !changed) return
    // Empty removes the domain.
    if (await save(value === '' ? null : value)) {
      showToast(
        'success',
        value === '' ? t('editor.share.customDomainRemoved') : t('editor.share.customDomainSaved')
      )
    }
  }

  return (
    <form className="grid gap-1.5" onSubmit={submit} noValidate>
      <Label htmlFor="share-custom-domain">{t('editor.share.customDomain')}</Label>
      <div className="flex gap-2">
        <Input
          id="share-custom-domain"
          data-testid="custom-domain-input"
          value={draft}
          maxLength={255}
          autoComplete="off"
          spellCheck={false}
          inputMode="url"
          placeholder="bot.example.com"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${errorId} ${hintId}` : hintId}
          onChange={(event) => change(event.target.value)}
        />
        <Button
          type="submit"
          size="sm"
          className="h-9"
          data-testid="custom-domain-save"
          disabled={busy || !changed}
        >
          {t('common.save')}
        </Button>
      </div>
      {error && <FieldMessage id={errorId} testId="custom-domain-error" error={error} />}
      <p id={hintId} className="text-xs text-muted-foreground">
        {t('editor.share.customDomainHint')}
      </p>
      {stored && <CustomDomainVerification domain={stored} />}
    </form>
  )
}

interface DomainStatus {
  domain: string | null
  status: 'pending' | 'verified' | null
  record: { type: 'TXT'; name: string; value: string } | null
}

/**
 * A saved domain is served only once its host is proven (docs/custom_domains.md): while
 * pending, the TXT record to add and a button that checks it now.
 */
function CustomDomainVerification({ domain }: { domain: string }) {
  const { t } = useTranslation()
  const botId = useBotEditor((state) => state.botId)
  const [status, setStatus] = useState<DomainStatus | null>(null)
  const [error, setError] = useState<FieldError | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let current = true
    setError(null)
    jsonFetch<DomainStatus>(`/api/v1/bots/${botId}/custom-domain`)
      .then((answer) => current && setStatus(answer))
      .catch((caught) => current && setError(toFieldError(caught)))
    return () => {
      current = false
    }
  }, [botId, domain])

  async function verify() {
    setBusy(true)
    setError(null)
    try {
      setStatus(
        await jsonFetch<DomainStatus>(`/api/v1/bots/${botId}/custom-domain/verify`, {
          method: 'POST',
        })
      )
    } catch (caught) {
      setError(toFieldError(caught))
    } finally {
      setBusy(false)
    }
  }

  if (!status || status.domain !== domain) {
    return error ? <FieldMessage id="" testId="custom-domain-status-error" error={error} /> : null
  }
  if (status.status === 'verified') {
    return (
      <p className="text-xs text-emerald-700" data-testid="custom-domain-status">
        <CheckIcon className="mr-1 inline size-3" aria-hidden />
        {t('editor.share.customDomainVerified')}
      </p>
    )
  }
  return (
    <div className="grid gap-1.5 rounded-md border p-2 text-xs" data-testid="custom-domain-status">
      <p className="font-medium text-amber-700">{t('editor.share.customDomainPending')}</p>
      <p className="text-muted-foreground">{t('editor.share.customDomainRecordHint')}</p>
      {status.record && (
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 gap-y-1 font-mono break-all">
          <dt className="font-sans text-muted-foreground">
            {t('editor.share.customDomainRecordName')}
          </dt>
          <dd data-testid="custom-domain-record-name">{status.record.name}</dd>
          <dt className="font-sans text-muted-foreground">
            {t('editor.share.customDomainRecordValue')}
          </dt>
          <dd data-testid="custom-domain-record-value">{status.record.value}</dd>
        </dl>
      )}
      <div>
        <Button
          type="button"
          size="sm"
          variant="secondary"
          data-testid="custom-domain-verify"
          disabled={busy}
          onClick={verify}
        >
          {t('editor.share.customDomainVerify')}
        </Button>
      </div>
      {error && <FieldMessage id="" testId="custom-domain-status-error" error={error} />}
    </div>
  )
}

/** Copy-paste snippets for websites (HTML, React, WordPress) once the bot is published. */
function EmbedSection() {
  const viewerOrigin = useViewerOrigin()
  const { t } = useTranslation()
  const publicId = useBotEditor((state) => state.history.present.publicId ?? '')
  const isPublished = useBotEditor((state) => state.published !== null)
  if (!isPublished || !publicId) return null
  return (
    <>
      <Separator />
      <Dialog>
        <DialogTrigger asChild>
          <Button variant="secondary" size="sm" data-testid="embed-button">
            <CodeXmlIcon /> {t('editorPreview.embed')}
          </Button>
        </DialogTrigger>
        <DialogContent className="max-w-2xl">
          <DialogHeader>
            <DialogTitle>{t('editorPreview.embedTitle')}</DialogTitle>
          </DialogHeader>
          <EmbedSnippets publicId={publicId} apiHost={viewerOrigin} />
        </DialogContent>
      </Dialog>
    </>
  )
}
