import { useState } from 'react'
import { Head, Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { DatabaseIcon, PlusIcon } from 'lucide-react'
import type { VectorsPageProps } from '#shared/knowledge'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { EmptyState } from '~/components/empty_state'
import { Button } from '~/components/ui/button'
import { usePageProps } from '~/hooks/use_shared_props'
import { StoreDialog } from '~/features/knowledge/store_dialog'
import { CapabilitiesNote } from '~/features/knowledge/capabilities_note'

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
        <StoreDialog
          open={creating}
          onOpenChange={setCreating}
          credentials={props.embeddingCredentials}
          backendCredentials={props.backendCredentials}
          onSaved={(store) => router.visit(`/vectors/${store.id}`)}
        />
      )}
    </AppLayout>
  )
}
