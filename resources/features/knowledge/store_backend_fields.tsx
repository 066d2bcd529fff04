import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { BackendCredentialOption, BackendIndexOption } from '#shared/knowledge'
import { jsonFetch } from '~/lib/http'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import type { SettingsErrors, StoreSettings } from './store_settings_form'

/**
 * Where a store kept by a plugin lives: credentials of that plugin, an index of that account
 * (listed by the server through the plugin's backend; only indexes that embed text can be
 * chosen) and a namespace. Read-only once the store exists: its records live there.
 */
export function BackendFields({
  value,
  onChange,
  errors,
  name,
  credentials,
  locked,
  disabled,
  selectClass,
}: {
  value: StoreSettings
  onChange: (next: StoreSettings) => void
  errors: SettingsErrors
  /** The name of the plugin keeping the store. */
  name: string
  /** The workspace's credentials of that plugin. */
  credentials: BackendCredentialOption[]
  locked: boolean
  disabled?: boolean
  selectClass: string
}) {
  const { t } = useTranslation()
  const id = useId()
  const [indexes, setIndexes] = useState<BackendIndexOption[] | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const credentialsId = value.backendCredentialsId
  useEffect(() => {
    if (locked || !credentialsId) return
    let current = true
    setIndexes(null)
    setLoadError(null)
    jsonFetch<{ indexes: BackendIndexOption[] }>(
      `/vectors/backend-indexes?credentialsId=${encodeURIComponent(credentialsId)}`
    )
      .then((body) => current && setIndexes(body.indexes))
      .catch((error: Error) => current && setLoadError(error.message))
    return () => {
      current = false
    }
  }, [credentialsId, locked])

  if (locked) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="store-backend-place">
        {t('knowledge.settings.backendPlace', {
          name,
          index: value.indexName,
          namespace: value.backendNamespace || t('knowledge.settings.defaultNamespace'),
        })}
      </p>
    )
  }
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-credentials`}>
          {t('knowledge.settings.backendCredentials', { name })}
        </Label>
        <select
          id={`${id}-credentials`}
          className={selectClass}
          value={credentialsId}
          disabled={disabled}
          aria-invalid={!!errors.backendCredentialsId || undefined}
          onChange={(event) =>
            onChange({ ...value, backendCredentialsId: event.target.value, indexName: '' })
          }
          data-testid="store-backend-credentials"
        >
          <option value="">{t('knowledge.settings.choose')}</option>
          {credentials.map((item) => (
            <option key={item.id} value={item.id}>
              {item.name}
            </option>
          ))}
        </select>
        {credentials.length === 0 && (
          <FieldHint>{t('knowledge.settings.noBackendCredentials', { name })}</FieldHint>
        )}
        <FieldError>{errors.backendCredentialsId}</FieldError>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-backend-index`}>{t('knowledge.settings.backendIndex')}</Label>
        <select
          id={`${id}-backend-index`}
          className={selectClass}
          value={value.indexName}
          disabled={disabled || !credentialsId || !indexes}
          aria-invalid={!!errors.indexName || undefined}
          onChange={(event) => onChange({ ...value, indexName: event.target.value })}
          data-testid="store-backend-index"
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
        <Label htmlFor={`${id}-namespace`}>{t('knowledge.settings.backendNamespace')}</Label>
        <Input
          id={`${id}-namespace`}
          value={value.backendNamespace}
          maxLength={128}
          disabled={disabled}
          placeholder={t('knowledge.settings.defaultNamespace')}
          aria-invalid={!!errors.backendNamespace || undefined}
          onChange={(event) => onChange({ ...value, backendNamespace: event.target.value })}
          data-testid="store-backend-namespace"
        />
        <FieldError>{errors.backendNamespace}</FieldError>
      </div>
    </div>
  )
}
