import { useState } from 'react'
import { Head, Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { DatabaseIcon, PlusIcon } from 'lucide-react'
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_OVERLAP,
  type KnowledgeStoreDto,
  type VectorsPageProps,
} from '#shared/knowledge'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { EmptyState } from '~/components/empty_state'
import { Button } from '~/components/ui/button'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { usePageProps } from '~/hooks/use_shared_props'
import { jsonFetch, errorDescription } from '~/lib/http'
import { showToast } from '~/lib/toast'
import {
  StoreSettingsForm,
  settingsErrorsOf,
  settingsPayload,
  type SettingsErrors,
  type StoreSettings,
} from '~/features/knowledge/store_settings_form'
import { CapabilitiesNote } from '~/features/knowledge/capabilities_note'

const EMPTY: StoreSettings = {
  name: '',
  indexName: '',
  chunkingMethod: 'recursive',
  chunkSize: DEFAULT_CHUNK_SIZE,
  overlapSize: DEFAULT_OVERLAP,
  embeddingCredentialsId: '',
  embeddingModel: '',
}

function CreateStoreDialog({
  open,
  onOpenChange,
  credentials,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  credentials: VectorsPageProps['embeddingCredentials']
}) {
  const { t } = useTranslation()
  const [value, setValue] = useState<StoreSettings>(EMPTY)
  const [errors, setErrors] = useState<SettingsErrors>({})
  const [saving, setSaving] = useState(false)

  async function submit(event: React.FormEvent) {
    event.preventDefault()
    if (!value.name.trim()) return setErrors({ name: t('knowledge.create.nameRequired') })
    setSaving(true)
    try {
      const { store } = await jsonFetch<{ store: KnowledgeStoreDto }>('/vectors', {
        method: 'POST',
        body: settingsPayload(value),
      })
      showToast('success', t('knowledge.create.done'), store.name)
      setValue(EMPTY)
      router.visit(`/vectors/${store.id}`)
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

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-xl">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('knowledge.create.title')}</DialogTitle>
            <DialogDescription>{t('knowledge.create.description')}</DialogDescription>
          </DialogHeader>
          <StoreSettingsForm
            value={value}
            onChange={(next) => {
              setValue(next)
              setErrors({})
            }}
            errors={errors}
            credentials={credentials}
            disabled={saving}
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={saving} data-testid="create-store-submit">
              {saving ? t('common.creating') : t('knowledge.create.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

/** /vectors: the knowledge stores of the current workspace. */
export default function VectorsIndex(props: VectorsPageProps) {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  const [creating, setCreating] = useState(false)
  const { stores, canWrite, limit } = props
  const atLimit = limit.limit !== -1 && limit.used >= limit.limit

  const createButton = canWrite && (
    <div className="grid justify-items-end gap-1">
      <Button
        size="sm"
        onClick={() => setCreating(true)}
        disabled={atLimit}
        data-testid="create-store"
        data-tour="vectors-create"
      >
        <PlusIcon aria-hidden />
        {t('knowledge.create.button')}
      </Button>
      {atLimit && (
        <p className="text-xs text-muted-foreground" data-testid="store-limit">
          {t('knowledge.limitReached', { count: limit.limit })}{' '}
          <Link href="/bots/plans" className="underline">
            {t('knowledge.upgrade')}
          </Link>
        </p>
      )}
    </div>
  )

  return (
    <AppLayout>
      <Head title={t('vectors.title')} />
      <PageHeader
        title={t('vectors.title')}
        description={t('vectors.description')}
        actions={createButton}
      />
      <div className="grid gap-4 p-6" data-tour="vectors-list">
        {stores.length === 0 ? (
          <EmptyState
            icon={DatabaseIcon}
            title={t('vectors.emptyTitle')}
            description={t('vectors.emptyDescription', { workspace: currentWorkspace?.name ?? '' })}
            testId="vectors-empty"
          >
            {createButton}
          </EmptyState>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-testid="store-list">
            {stores.map((store) => (
              <li key={store.id}>
                <Link
                  href={`/vectors/${store.id}`}
                  className="grid gap-1 rounded-lg border p-4 transition-colors hover:bg-muted/50 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
                  data-testid="store-card"
                >
                  <span className="flex items-center gap-2 font-medium">
                    <DatabaseIcon aria-hidden className="size-4 text-primary" />
                    <span className="truncate">{store.name}</span>
                  </span>
                  <span className="text-xs text-muted-foreground">
                    {t('knowledge.card.index', { index: store.indexName })}
                  </span>
                  <span className="text-sm text-muted-foreground">
                    {t('knowledge.card.counts', {
                      sources: store.sourceCount,
                      chunks: store.chunkCount,
                    })}
                    {' · '}
                    {store.embeddingCredentialsId
                      ? t('knowledge.card.hybrid')
                      : t('knowledge.card.keyword')}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
        <CapabilitiesNote capabilities={props.capabilities} />
      </div>
      {canWrite && (
        <CreateStoreDialog
          open={creating}
          onOpenChange={setCreating}
          credentials={props.embeddingCredentials}
        />
      )}
    </AppLayout>
  )
}
