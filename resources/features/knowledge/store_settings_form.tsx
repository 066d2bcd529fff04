import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  CHUNKING_METHODS,
  MAX_CHUNK_SIZE,
  MIN_CHUNK_SIZE,
  STORE_BACKENDS,
  type ChunkingMethod,
  type EmbeddingCredentialOption,
  type PineconeCredentialOption,
  type PineconeIndexOption,
  type StoreBackend,
} from '#shared/knowledge'
import { jsonFetch } from '~/lib/http'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'

export interface StoreSettings {
  name: string
  indexName: string
  chunkingMethod: ChunkingMethod
  chunkSize: number
  overlapSize: number
  embeddingCredentialsId: string
  embeddingModel: string
  backend: StoreBackend
  pineconeCredentialsId: string
  pineconeNamespace: string
}

export type SettingsErrors = Partial<Record<keyof StoreSettings, string>>

/**
 * The settings of a store, in the create dialog and on the store page: name, index name,
 * chunking, and the credentials that turn on hybrid search.
 */
export function StoreSettingsForm({
  value,
  onChange,
  errors,
  credentials,
  pineconeCredentials = [],
  creating = false,
  disabled,
}: {
  value: StoreSettings
  onChange: (next: StoreSettings) => void
  errors: SettingsErrors
  credentials: EmbeddingCredentialOption[]
  pineconeCredentials?: PineconeCredentialOption[]
  /** Where a store lives is chosen when it is created, never after. */
  creating?: boolean
  disabled?: boolean
}) {
  const { t } = useTranslation()
  const id = useId()
  const set = <K extends keyof StoreSettings>(key: K, next: StoreSettings[K]) =>
    onChange({ ...value, [key]: next })
  const chosen = credentials.find((item) => item.id === value.embeddingCredentialsId)
  const selectClass =
    'h-9 w-full rounded-md border border-input bg-transparent px-3 text-sm shadow-xs focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none disabled:opacity-50'
  const pinecone = value.backend === 'pinecone'
  return (
    <div className="grid gap-4">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-name`}>{t('knowledge.settings.name')}</Label>
        <Input
          id={`${id}-name`}
          value={value.name}
          maxLength={255}
          disabled={disabled}
          aria-invalid={!!errors.name || undefined}
          onChange={(event) => set('name', event.target.value)}
          data-testid="store-name"
        />
        <FieldError>{errors.name}</FieldError>
      </div>
      {creating && (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-backend`}>{t('knowledge.settings.backend')}</Label>
          <select
            id={`${id}-backend`}
            className={selectClass}
            value={value.backend}
            disabled={disabled}
            onChange={(event) =>
              onChange({ ...value, backend: event.target.value as StoreBackend, indexName: '' })
            }
            data-testid="store-backend"
          >
            {STORE_BACKENDS.map((backend) => (
              <option key={backend} value={backend}>
                {t(`knowledge.settings.backends.${backend}`)}
              </option>
            ))}
          </select>
          <FieldHint>{t('knowledge.settings.backendHint')}</FieldHint>
        </div>
      )}
      {pinecone ? (
        <PineconeFields
          value={value}
          onChange={onChange}
          errors={errors}
          pineconeCredentials={pineconeCredentials}
          locked={!creating}
          disabled={disabled}
          selectClass={selectClass}
        />
      ) : (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-index`}>{t('knowledge.settings.indexName')}</Label>
          <Input
            id={`${id}-index`}
            value={value.indexName}
            maxLength={45}
            disabled={disabled}
            placeholder={t('knowledge.settings.indexNamePlaceholder')}
            aria-invalid={!!errors.indexName || undefined}
            onChange={(event) => set('indexName', event.target.value.toLowerCase())}
          />
          <FieldHint>{t('knowledge.settings.indexNameHint')}</FieldHint>
          <FieldError>{errors.indexName}</FieldError>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-method`}>{t('knowledge.settings.chunkingMethod')}</Label>
          <select
            id={`${id}-method`}
            className={selectClass}
            value={value.chunkingMethod}
            disabled={disabled}
            onChange={(event) => set('chunkingMethod', event.target.value as ChunkingMethod)}
          >
            {CHUNKING_METHODS.map((method) => (
              <option key={method} value={method}>
                {t(`knowledge.settings.methods.${method}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-size`}>{t('knowledge.settings.chunkSize')}</Label>
          <Input
            id={`${id}-size`}
            type="number"
            min={MIN_CHUNK_SIZE}
            max={MAX_CHUNK_SIZE}
            value={value.chunkSize}
            disabled={disabled}
            aria-invalid={!!errors.chunkSize || undefined}
            onChange={(event) => set('chunkSize', Number(event.target.value))}
          />
          <FieldError>{errors.chunkSize}</FieldError>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-overlap`}>{t('knowledge.settings.overlapSize')}</Label>
          <Input
            id={`${id}-overlap`}
            type="number"
            min={0}
            max={MAX_CHUNK_SIZE}
            value={value.overlapSize}
            disabled={disabled}
            aria-invalid={!!errors.overlapSize || undefined}
            onChange={(event) => set('overlapSize', Number(event.target.value))}
          />
          <FieldError>{errors.overlapSize}</FieldError>
        </div>
      </div>
      {!pinecone && (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-embedding`}>{t('knowledge.settings.embedding')}</Label>
            <select
              id={`${id}-embedding`}
              className={selectClass}
              value={value.embeddingCredentialsId}
              disabled={disabled}
              onChange={(event) => set('embeddingCredentialsId', event.target.value)}
            >
              <option value="">{t('knowledge.settings.keywordOnly')}</option>
              {credentials.map((item) => (
                <option key={item.id} value={item.id}>
                  {item.name} ({item.type})
                </option>
              ))}
            </select>
            <FieldHint>
              {credentials.length === 0
                ? t('knowledge.settings.noEmbeddingCredentials')
                : t('knowledge.settings.embeddingHint')}
            </FieldHint>
            <FieldError>{errors.embeddingCredentialsId}</FieldError>
          </div>
          {value.embeddingCredentialsId && (
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-model`}>{t('knowledge.settings.embeddingModel')}</Label>
              <Input
                id={`${id}-model`}
                value={value.embeddingModel}
                maxLength={128}
                disabled={disabled}
                placeholder={chosen?.defaultModel}
                onChange={(event) => set('embeddingModel', event.target.value)}
              />
            </div>
          )}
        </div>
      )}
    </div>
  )
}

/** The field errors of a failed save (VineJS errors, or an AppError naming its field). */
export function settingsErrorsOf(error: unknown): SettingsErrors {
  const errors: SettingsErrors = {}
  const list = (error as { errors?: unknown }).errors
  if (Array.isArray(list)) {
    for (const entry of list as { field?: string; message?: string }[]) {
      if (entry.field && entry.message) errors[entry.field as keyof StoreSettings] = entry.message
    }
  }
  return errors
}

/**
 * The Pinecone part of a store: the credentials, an index of that account (listed by the
 * server; only indexes that embed text can be chosen) and a namespace. Read-only once the
 * store exists: its records live there.
 */
function PineconeFields({
  value,
  onChange,
  errors,
  pineconeCredentials,
  locked,
  disabled,
  selectClass,
}: {
  value: StoreSettings
  onChange: (next: StoreSettings) => void
  errors: SettingsErrors
  pineconeCredentials: PineconeCredentialOption[]
  locked: boolean
  disabled?: boolean
  selectClass: string
}) {
  const { t } = useTranslation()
  const id = useId()
  const [indexes, setIndexes] = useState<PineconeIndexOption[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const credentialsId = value.pineconeCredentialsId
  useEffect(() => {
    if (locked || !credentialsId) return
    let current = true
    setIndexes(null)
    setLoadError(null)
    jsonFetch<{ indexes: PineconeIndexOption[] }>(
      `/vectors/pinecone-indexes?credentialsId=${encodeURIComponent(credentialsId)}`
    )
      .then((body) => current && setIndexes(body.indexes))
      .catch((error: Error) => current && setLoadError(error.message))
    return () => {
      current = false
    }
  }, [credentialsId, locked])

  if (locked) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="store-pinecone-place">
        {t('knowledge.settings.pineconePlace', {
          index: value.indexName,
          namespace: value.pineconeNamespace || t('knowledge.settings.defaultNamespace'),
        })}
      </p>
    )
  }
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-credentials`}>{t('knowledge.settings.pineconeCredentials')}</Label>
        <select
          id={`${id}-credentials`}
          className={selectClass}
          value={credentialsId}
          disabled={disabled}
          aria-invalid={!!errors.pineconeCredentialsId || undefined}
          onChange={(event) =>
            onChange({ ...value, pineconeCredentialsId: event.target.value, indexName: '' })
          }
          data-testid="store-pinecone-credentials"
        >
          <option value="">{t('knowledge.settings.choose')}</option>
          {pineconeCredentials.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </select>
        {pineconeCredentials.length === 0 && (
          <FieldHint>{t('knowledge.settings.noPineconeCredentials')}</FieldHint>
        )}
        <FieldError>{errors.pineconeCredentialsId}</FieldError>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-pinecone-index`}>{t('knowledge.settings.pineconeIndex')}</Label>
        <select
          id={`${id}-pinecone-index`}
          className={selectClass}
          value={value.indexName}
          disabled={disabled || !credentialsId || !indexes}
          aria-invalid={!!errors.indexName || undefined}
          onChange={(event) => onChange({ ...value, indexName: event.target.value })}
          data-testid="store-pinecone-index"
        >
          <option value="">
            {credentialsId && !indexes && !loadError
              ? t('knowledge.settings.loadingIndexes')
              : t('knowledge.settings.choose')}
          </option>
          {(indexes ?? []).map((index) => (
            <option key={index.name} value={index.name} disabled={!index.integrated}>
              {index.integrated
                ? `${index.name} (${index.model})`
                : t('knowledge.settings.notIntegrated', { index: index.name })}
            </option>
          ))}
        </select>
        {indexes?.length === 0 && <FieldHint>{t('knowledge.settings.noIndexes')}</FieldHint>}
        <FieldError>{loadError ?? errors.indexName}</FieldError>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-namespace`}>{t('knowledge.settings.pineconeNamespace')}</Label>
        <Input
          id={`${id}-namespace`}
          value={value.pineconeNamespace}
          maxLength={128}
          disabled={disabled}
          placeholder={t('knowledge.settings.defaultNamespace')}
          aria-invalid={!!errors.pineconeNamespace || undefined}
          onChange={(event) => onChange({ ...value, pineconeNamespace: event.target.value })}
          data-testid="store-pinecone-namespace"
        />
        <FieldError>{errors.pineconeNamespace}</FieldError>
      </div>
    </div>
  )
}

/**
 * The settings as the server takes them: empty optional fields are left out; where the
 * store lives only when it is created.
 */
export function settingsPayload(value: StoreSettings, creating = false) {
  const place =
    creating && value.backend === 'pinecone'
      ? {
          backend: value.backend,
          pineconeCredentialsId: value.pineconeCredentialsId || null,
          pineconeNamespace: value.pineconeNamespace.trim(),
        }
      : {}
  return {
    ...place,
    name: value.name.trim(),
    ...(value.indexName.trim() ? { indexName: value.indexName.trim() } : {}),
    chunkingMethod: value.chunkingMethod,
    chunkSize: value.chunkSize,
    overlapSize: value.overlapSize,
    embeddingCredentialsId: value.embeddingCredentialsId || null,
    embeddingModel: value.embeddingModel.trim() || null,
  }
}
