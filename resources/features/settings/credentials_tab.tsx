import { useEffect, useMemo, useState, type ReactNode } from 'react'
import { router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  CircleCheckIcon,
  CircleXIcon,
  FlaskConicalIcon,
  LinkIcon,
  LoaderCircleIcon,
  LockKeyholeIcon,
  PencilIcon,
  PlusIcon,
  TriangleAlertIcon,
} from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Badge } from '~/components/ui/badge'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { EmptyState } from '~/components/empty_state'
import { PluginForm } from '~/features/plugin_form/plugin_form'
import { defaultsOfFields, errorsUnder } from '~/features/plugin_form/values'
import type { FormField } from '~/features/plugin_form/types'
import { translateCredentialFields } from '~/features/plugin_form/translated_form'
import { usePluginLocales } from '~/features/workflow_editor/plugin_locales'
import { HttpError, jsonFetch } from '~/lib/http'
import { formatDate } from '~/lib/format'

/** A stored credentials record as the settings page sees it: never a secret's value. */
export interface CredentialRecordDto {
  id: string
  type: string
  name: string
  createdAt: string | null
  pluginName: string
  scope: 'user' | 'workspace'
  secrets: Record<string, 'set' | 'not set'>
  values: Record<string, unknown>
  /** false when the record was encrypted with another ENCRYPTION_SECRET */
  readable: boolean
  /** OAuth credentials: whether Connect went through; null for other kinds. */
  oauthConnected: boolean | null
}

/** A plugin that takes credentials: its credential fields and whether it can test them. */
export interface CredentialTypeDto {
  id: string
  name: string
  icon: string | null
  scope: 'user' | 'workspace'
  fields: FormField[]
  hasTest: boolean
  /** Connected through the provider's consent page. */
  oauth: boolean
}

const VISIT = { preserveScroll: true, preserveState: true } as const

type DialogState = { mode: 'create' } | { mode: 'edit'; record: CredentialRecordDto } | null

/** The Credentials tab: the API keys of other services that integrations use. */
export function CredentialsTab({
  credentials,
  credentialTypes,
}: {
  credentials: CredentialRecordDto[]
  credentialTypes: CredentialTypeDto[]
}) {
  const { t } = useTranslation()
  const [dialog, setDialog] = useState<DialogState>(null)
  const types = credentialTypes ?? []
  const records = credentials ?? []

  const groups = useMemo(() => {
    const byType = new Map<string, CredentialRecordDto[]>()
    for (const record of records) {
      byType.set(record.pluginName, [...(byType.get(record.pluginName) ?? []), record])
    }
    return [...byType.entries()].sort(([a], [b]) => a.localeCompare(b))
  }, [records])

  const addButton = (
    <Button
      onClick={() => setDialog({ mode: 'create' })}
      disabled={types.length === 0}
      data-testid="add-credentials"
    >
      <PlusIcon aria-hidden />
      {t('credentials.add')}
    </Button>
  )

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <p className="max-w-prose text-sm text-muted-foreground">{t('credentials.description')}</p>
        {records.length > 0 && addButton}
      </div>

      {records.length === 0 ? (
        <EmptyState
          icon={LockKeyholeIcon}
          title={t('credentials.emptyTitle')}
          description={
            types.length === 0 ? t('credentials.noTypes') : t('credentials.emptyDescription')
          }
          testId="credentials-empty"
        >
          {types.length > 0 && addButton}
        </EmptyState>
      ) : (
        groups.map(([pluginName, rows]) => (
          <section
            key={pluginName}
            className="grid gap-2"
            aria-label={pluginName}
            data-testid="credential-group"
          >
            <h3 className="text-sm font-semibold">{pluginName}</h3>
            <ul className="divide-y rounded-lg border">
              {rows.map((record) => (
                <CredentialRow
                  key={record.id}
                  record={record}
                  type={types.find((candidate) => candidate.id === record.type)}
                  onEdit={() => setDialog({ mode: 'edit', record })}
                />
              ))}
            </ul>
          </section>
        ))
      )}

      <CredentialDialog state={dialog} types={types} onClose={() => setDialog(null)} />
    </div>
  )
}

type TestState =
  { status: 'idle' } | { status: 'testing' } | { status: 'done'; ok: boolean; message: string }

function CredentialRow({
  record,
  type,
  onEdit,
}: {
  record: CredentialRecordDto
  type: CredentialTypeDto | undefined
  onEdit: () => void
}) {
  const { t } = useTranslation()
  const [test, setTest] = useState<TestState>({ status: 'idle' })

  async function runTest() {
    setTest({ status: 'testing' })
    try {
      const result = await jsonFetch<{ ok: boolean; message: string }>(
        `/api/credentials/${record.id}/test`,
        { method: 'POST', body: {} }
      )
      setTest({ status: 'done', ok: !!result?.ok, message: result?.message ?? '' })
    } catch (error) {
      const message =
        error instanceof HttpError
          ? [error.message, error.description].filter(Boolean).join(' - ')
          : t('common.somethingWentWrong')
      setTest({ status: 'done', ok: false, message })
    }
  }

  return (
    <li
      className="grid gap-2 px-4 py-3"
      data-testid="credential-row"
      data-credential-id={record.id}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="grid min-w-0 flex-1 gap-0.5">
          <div className="flex flex-wrap items-center gap-2">
            <span className="truncate font-medium" data-testid="credential-row-name">
              {record.name}
            </span>
            {record.oauthConnected !== null && (
              <Badge
                variant={record.oauthConnected ? 'secondary' : 'outline'}
                data-testid="credential-oauth-status"
              >
                {record.oauthConnected
                  ? t('credentials.oauthConnected')
                  : t('credentials.oauthNotConnected')}
              </Badge>
            )}
            {record.scope === 'user' && (
              <Badge variant="secondary" title={t('credentials.onlyYouHint')}>
                {t('credentials.onlyYou')}
              </Badge>
            )}
          </div>
          <span className="text-xs text-muted-foreground">
            {record.pluginName}
            {record.createdAt && (
              <> · {t('credentials.created', { date: formatDate(record.createdAt) })}</>
            )}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-1">
          {type?.oauth && record.readable && (
            // A full page visit: the provider's consent page is another site.
            <Button variant="outline" size="sm" asChild>
              <a
                href={`/settings/account/credentials/${record.id}/oauth`}
                data-testid="credential-oauth-connect"
              >
                <LinkIcon aria-hidden />
                {record.oauthConnected
                  ? t('credentials.oauthReconnect')
                  : t('credentials.oauthConnect')}
              </a>
            </Button>
          )}
          {type?.hasTest && record.readable && (
            <Button
              variant="outline"
              size="sm"
              onClick={() => void runTest()}
              disabled={test.status === 'testing'}
              aria-busy={test.status === 'testing' || undefined}
              data-testid="credential-test"
            >
              {test.status === 'testing' ? (
                <LoaderCircleIcon aria-hidden className="animate-spin" />
              ) : (
                <FlaskConicalIcon aria-hidden />
              )}
              {test.status === 'testing' ? t('credentials.testing') : t('credentials.test')}
            </Button>
          )}
          {record.readable && type && (
            <Button variant="ghost" size="sm" onClick={onEdit} data-testid="credential-edit">
              <PencilIcon aria-hidden />
              {t('credentials.edit')}
            </Button>
          )}
          <ConfirmDialog
            trigger={
              <Button
                variant="ghost"
                size="sm"
                className="text-destructive"
                data-testid="credential-delete"
              >
                {t('credentials.delete')}
              </Button>
            }
            title={t('credentials.deleteTitle', { name: record.name })}
            description={t('credentials.deleteDescription')}
            confirmLabel={t('credentials.delete')}
            onConfirm={() => router.delete(`/settings/account/credentials/${record.id}`, VISIT)}
          />
        </div>
      </div>
      {!record.readable && (
        <p
          role="alert"
          className="flex items-start gap-2 text-xs text-muted-foreground"
          data-testid="credential-unreadable"
        >
          <TriangleAlertIcon aria-hidden className="mt-0.5 size-3.5 shrink-0 text-warning" />
          {t('credentials.unreadable')}
        </p>
      )}
      <div aria-live="polite">
        {test.status === 'done' && (
          <p
            className={
              test.ok
                ? 'flex items-start gap-1.5 text-sm text-success'
                : 'flex items-start gap-1.5 text-sm text-destructive'
            }
            data-testid="credential-test-result"
            data-ok={test.ok}
          >
            {test.ok ? (
              <CircleCheckIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
            ) : (
              <CircleXIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
            )}
            {test.message || (test.ok ? t('credentials.testOk') : t('credentials.testFailed'))}
          </p>
        )}
      </div>
    </li>
  )
}

interface Draft {
  type: string
  name: string
  data: Record<string, unknown>
}

function emptyDraft(types: CredentialTypeDto[]): Draft {
  // With a single kind of credentials there is nothing to choose.
  const only = types.length === 1 ? types[0] : undefined
  return { type: only?.id ?? '', name: '', data: only ? defaultsOfFields(only.fields) : {} }
}

function CredentialDialog({
  state,
  types,
  onClose,
}: {
  state: DialogState
  types: CredentialTypeDto[]
  onClose: () => void
}) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<Draft>(() => emptyDraft(types))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [processing, setProcessing] = useState(false)
  const editing = state?.mode === 'edit' ? state.record : null

  // Each opening starts from a clean form (prefilled with the record when editing).
  useEffect(() => {
    setErrors({})
    // A closed dialog keeps no typed secret in memory or in the page.
    if (!state) return setDraft(emptyDraft(types))
    if (state.mode === 'edit') {
      setDraft({
        type: state.record.type,
        name: state.record.name,
        data: { ...state.record.values },
      })
    } else {
      setDraft(emptyDraft(types))
    }
  }, [state])

  const type = types.find((candidate) => candidate.id === draft.type)

  // The fields' labels and hints in the user's language (the plugins' locale files);
  // pluginLanguage changes once that language's files are loaded.
  const typeIds = useMemo(() => types.map((candidate) => candidate.id), [types])
  const pluginLanguage = usePluginLocales(typeIds)
  // Saved secrets are never sent back: an empty secret field keeps the stored value.
  const fields = useMemo(() => {
    if (!type) return []
    const translated = translateCredentialFields(type.id, type.fields)
    if (!editing) return translated
    return translated.map((field) =>
      field.secret && editing.secrets[field.name] === 'set'
        ? { ...field, placeholder: t('credentials.secretKeep') }
        : field
    )
  }, [type, editing, t, pluginLanguage])

  const notes = useMemo(() => {
    const byField: Record<string, ReactNode> = {}
    if (!editing) return byField
    for (const [name, status] of Object.entries(editing.secrets)) {
      byField[name] = status === 'set' ? t('credentials.secretSet') : t('credentials.secretNotSet')
    }
    return byField
  }, [editing, t])

  function chooseType(id: string) {
    const chosen = types.find((candidate) => candidate.id === id)
    setDraft((current) => ({
      ...current,
      type: id,
      data: chosen ? defaultsOfFields(chosen.fields) : {},
    }))
    setErrors({})
  }

  function submit(event: React.FormEvent) {
    event.preventDefault()
    const options = {
      ...VISIT,
      onStart: () => setProcessing(true),
      onFinish: () => setProcessing(false),
      onError: (next: Record<string, string>) => setErrors(next),
      onSuccess: () => onClose(),
    }
    if (editing) {
      router.patch(
        `/settings/account/credentials/${editing.id}`,
        { name: draft.name, data: draft.data } as any,
        options
      )
    } else {
      router.post(
        '/settings/account/credentials',
        { type: draft.type, name: draft.name, data: draft.data } as any,
        options
      )
    }
  }

  const fieldErrors = errorsUnder(errors, 'data')
  const scopeNote = type
    ? type.scope === 'user'
      ? t('credentials.scopeUser')
      : t('credentials.scopeWorkspace')
    : null

  return (
    <Dialog open={!!state} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg" data-testid="credential-dialog">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>
              {editing
                ? t('credentials.editTitle', { name: editing.name })
                : t('credentials.addTitle')}
            </DialogTitle>
            <DialogDescription>{t('credentials.dialogDescription')}</DialogDescription>
          </DialogHeader>

          {editing ? (
            <p className="text-sm">
              <span className="text-muted-foreground">{t('credentials.typeLabel')}: </span>
              <span className="font-medium">{editing.pluginName}</span>
            </p>
          ) : (
            <div className="grid gap-2">
              <Label htmlFor="credential-type">{t('credentials.typeLabel')}</Label>
              <Select value={draft.type} onValueChange={chooseType}>
                <SelectTrigger
                  id="credential-type"
                  className="w-full"
                  data-testid="credential-type"
                  aria-invalid={!!errors.type || undefined}
                  aria-describedby={errors.type ? 'credential-type-error' : undefined}
                >
                  <SelectValue placeholder={t('credentials.typePlaceholder')} />
                </SelectTrigger>
                <SelectContent>
                  {types.map((candidate) => (
                    <SelectItem key={candidate.id} value={candidate.id}>
                      {candidate.name}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
              <FieldError id="credential-type-error">{errors.type}</FieldError>
            </div>
          )}

          <div className="grid gap-2">
            <Label htmlFor="credential-name">{t('credentials.nameLabel')}</Label>
            <Input
              id="credential-name"
              data-testid="credential-name"
              value={draft.name}
              onChange={(e) => setDraft((current) => ({ ...current, name: e.target.value }))}
              placeholder={t('credentials.namePlaceholder')}
              maxLength={255}
              required
              aria-invalid={!!errors.name || undefined}
              aria-describedby={errors.name ? 'credential-name-error' : 'credential-name-hint'}
            />
            <FieldHint id="credential-name-hint">{t('credentials.nameHint')}</FieldHint>
            <FieldError id="credential-name-error">{errors.name}</FieldError>
          </div>

          {type && (
            <PluginForm
              fields={fields}
              value={draft.data}
              onChange={(data) => setDraft((current) => ({ ...current, data }))}
              errors={fieldErrors}
              notes={notes}
              idPrefix="credential-data"
              testId="credential-fields"
            />
          )}

          {scopeNote && <FieldHint>{scopeNote}</FieldHint>}

          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              data-testid="credential-submit"
              disabled={processing || (!editing && !type)}
            >
              {processing && <LoaderCircleIcon aria-hidden className="animate-spin" />}
              {processing ? t('credentials.saving') : t('common.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
