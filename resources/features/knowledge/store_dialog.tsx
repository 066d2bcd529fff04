import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_OVERLAP,
  type EmbeddingCredentialOption,
  type KnowledgeStoreDto,
  LOCAL_BACKEND,
  type BackendCredentialOption,
} from '#shared/knowledge'
import { Button } from '~/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { jsonFetch, errorDescription } from '~/lib/http'
import { showToast } from '~/lib/toast'
import {
  StoreSettingsForm,
  settingsErrorsOf,
  settingsPayload,
  type SettingsErrors,
  type StoreSettings,
} from './store_settings_form'

const EMPTY: StoreSettings = {
  name: '',
  indexName: '',
  chunkingMethod: 'recursive',
  chunkSize: DEFAULT_CHUNK_SIZE,
  overlapSize: DEFAULT_OVERLAP,
  embeddingCredentialsId: '',
  embeddingModel: '',
  backend: LOCAL_BACKEND,
  backendCredentialsId: '',
  backendNamespace: '',
}

function settingsOf(store: KnowledgeStoreDto): StoreSettings {
  return {
    name: store.name,
    indexName: store.indexName,
    chunkingMethod: store.chunkingMethod,
    chunkSize: store.chunkSize,
    overlapSize: store.overlapSize,
    embeddingCredentialsId: store.embeddingCredentialsId ?? '',
    embeddingModel: store.embeddingModel ?? '',
    backend: store.backend,
    backendCredentialsId: store.backendCredentialsId ?? '',
    backendNamespace: store.backendNamespace ?? '',
  }
}

/**
 * The store dialog of both Vectors pages: creating a store (no `store`; where it lives is
 * chosen here, once) or changing one's settings.
 */
export function StoreDialog({
  store,
  credentials,
  backendCredentials = [],
  open,
  onOpenChange,
  onSaved,
}: {
  store?: KnowledgeStoreDto
  credentials: EmbeddingCredentialOption[]
  backendCredentials?: BackendCredentialOption[]
  open: boolean
  onOpenChange: (open: boolean) => void
  onSaved: (store: KnowledgeStoreDto) => void
}) {
  const { t } = useTranslation()
  const [value, setValue] = useState<StoreSettings>(store ? settingsOf(store) : EMPTY)
  const [errors, setErrors] = useState<SettingsErrors>({})
  const [saving, setSaving] = useState(false)
  useEffect(() => {
    if (open) setValue(store ? settingsOf(store) : EMPTY)
  }, [open, store])

  async function submit(event: React.FormEvent) {
    event.preventDefault()
    if (!value.name.trim()) return setErrors({ name: t('knowledge.create.nameRequired') })
    setSaving(true)
    try {
      const saved = await jsonFetch<{ store: KnowledgeStoreDto }>(
        store ? `/vectors/${store.id}` : '/vectors',
        { method: store ? 'PATCH' : 'POST', body: settingsPayload(value, !store) }
      )
      if (store) showToast('success', t('knowledge.settings.saved'))
      else showToast('success', t('knowledge.create.done'), saved.store.name)
      onSaved(saved.store)
    } catch (error) {
      const fieldErrors = settingsErrorsOf(error)
      setErrors(fieldErrors)
      if (Object.keys(fieldErrors).length === 0) {
        showToast('error', (error as Error).message, errorDescription(error))
      }
    } finally {
      setSaving(false)
    }
  }

  const busyLabel = store ? t('knowledge.settings.saving') : t('common.creating')
  const submitLabel = store ? t('common.save') : t('knowledge.create.submit')
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>
              {store ? t('knowledge.settings.title') : t('knowledge.create.title')}
            </DialogTitle>
            <DialogDescription>
              {store ? t('knowledge.settings.description') : t('knowledge.create.description')}
            </DialogDescription>
          </DialogHeader>
          <StoreSettingsForm
            value={value}
            onChange={(next) => {
              setValue(next)
              setErrors({})
            }}
            errors={errors}
            credentials={credentials}
            backendCredentials={backendCredentials}
            creating={!store}
            disabled={saving}
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              disabled={saving}
              data-testid={store ? 'store-settings-submit' : 'create-store-submit'}
            >
              {saving ? busyLabel : submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
