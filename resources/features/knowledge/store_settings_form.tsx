import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import {
  CHUNKING_METHODS,
  MAX_CHUNK_SIZE,
  MIN_CHUNK_SIZE,
  LOCAL_BACKEND,
  type BackendCredentialOption,
  type ChunkingMethod,
  type EmbeddingCredentialOption,
  type StoreBackend,
} from '#shared/knowledge'
import { storeBackendPlugins } from '~/lib/plugin_registry'
import { BackendFields } from './store_backend_fields'
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
  backendCredentialsId: string
  backendNamespace: string
}

export type SettingsErrors = Partial<Record<keyof StoreSettings, string>>

/**
 * The settings of a store, in the create dialog and on the store page: name, index name,
 * chunking, and the credentials that turn on hybrid search; when created, where the chunks
 * live: this app's database or the service of a plugin offering a vector store backend.
 */
export function StoreSettingsForm({
  value,
  onChange,
  errors,
  credentials,
  backendCredentials = [],
  creating = false,
  disabled,
}: {
  value: StoreSettings
  onChange: (next: StoreSettings) => void
  errors: SettingsErrors
  credentials: EmbeddingCredentialOption[]
  backendCredentials?: BackendCredentialOption[]
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
  const kept = value.backend !== LOCAL_BACKEND
  const backends = storeBackendPlugins()
  const keeper = backends.find((plugin) => plugin.id === value.backend)
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
            <option value={LOCAL_BACKEND}>{t('knowledge.settings.backends.local')}</option>
            {backends.map((plugin) => (
              <option key={plugin.id} value={plugin.id}>
                {plugin.name}
              </option>
            ))}
          </select>
          {keeper && (
            <FieldHint>{t('knowledge.settings.backendHint', { name: keeper.name })}</FieldHint>
          )}
        </div>
      )}
      {kept ? (
        <BackendFields
          value={value}
          onChange={onChange}
          errors={errors}
          name={keeper?.name ?? value.backend}
          credentials={backendCredentials.filter((item) => item.backend === value.backend)}
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
      {!kept && (
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
 * The settings as the server takes them: empty optional fields are left out; where the
 * store lives only when it is created.
 */
export function settingsPayload(value: StoreSettings, creating = false) {
  const place =
    creating && value.backend !== LOCAL_BACKEND
      ? {
          backend: value.backend,
          backendCredentialsId: value.backendCredentialsId || null,
          backendNamespace: value.backendNamespace.trim(),
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
