import { useEffect, useState } from 'react'
import { Head, Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { ArrowLeftIcon, SettingsIcon, Trash2Icon } from 'lucide-react'
import type { KnowledgeSourceDto, KnowledgeStoreDto, VectorStorePageProps } from '#shared/knowledge'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { Button } from '~/components/ui/button'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '~/components/ui/alert_dialog'
import { errorDescription, jsonFetch } from '~/lib/http'
import { showToast } from '~/lib/toast'
import { AddSource } from '~/features/knowledge/add_source'
import { SourcesTable } from '~/features/knowledge/sources_table'
import { SearchBox } from '~/features/knowledge/search_box'
import { CapabilitiesNote } from '~/features/knowledge/capabilities_note'
import { StoreDialog } from '~/features/knowledge/store_dialog'

const POLL_MS = 1000

/** /vectors/:id: a store's sources, their indexing, and "search this store". */
export default function VectorStoreShow(props: VectorStorePageProps) {
  const { t } = useTranslation()
  const [store, setStore] = useState(props.store)
  const [sources, setSources] = useState<KnowledgeSourceDto[]>(props.sources)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  useEffect(() => {
    setStore(props.store)
    setSources(props.sources)
  }, [props.store, props.sources])

  const busy = sources.some(
    (source) => source.status === 'PENDING' || source.status === 'PROCESSING'
  )

  async function refresh() {
    const data = await jsonFetch<{ sources: KnowledgeSourceDto[]; store: KnowledgeStoreDto }>(
      `/vectors/${store.id}/sources`
    )
    setSources(data.sources)
    setStore(data.store)
  }

  // Live progress: read the statuses again while some source is being indexed.
  useEffect(() => {
    if (!busy) return
    const timer = setInterval(() => void refresh().catch(() => {}), POLL_MS)
    return () => clearInterval(timer)
  }, [busy, store.id])

  async function act(run: () => Promise<unknown>) {
    try {
      await run()
      await refresh()
    } catch (error) {
      showToast('error', (error as Error).message, errorDescription(error))
    }
  }

  return (
    <AppLayout>
      <Head title={store.name} />
      <div className="px-6 pt-4">
        <Link
          href="/vectors"
          className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeftIcon aria-hidden className="size-4" />
          {t('knowledge.back')}
        </Link>
      </div>
      <PageHeader
        title={store.name}
        description={t('knowledge.storeDescription', {
          index: store.indexName,
          method: t(`knowledge.settings.methods.${store.chunkingMethod}`),
          size: store.chunkSize,
          overlap: store.overlapSize,
        })}
        actions={
          props.canWrite && (
            <>
              <Button
                size="sm"
                variant="outline"
                onClick={() => setEditing(true)}
                data-testid="store-settings"
              >
                <SettingsIcon aria-hidden />
                {t('knowledge.settings.button')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => setDeleting(true)}
                data-testid="delete-store"
              >
                <Trash2Icon aria-hidden />
                {t('knowledge.delete.button')}
              </Button>
            </>
          )
        }
      />
      <div className="grid gap-8 p-6 lg:grid-cols-2">
        <div className="grid content-start gap-6">
          {props.canWrite && (
            <section className="grid gap-3" aria-labelledby="add-source-title">
              <h2 id="add-source-title" className="text-base font-semibold">
                {t('knowledge.sources.addTitle')}
              </h2>
              <AddSource
                storeId={store.id}
                onAdded={(source) => setSources((list) => [source, ...list])}
              />
            </section>
          )}
          <section className="grid gap-3" aria-labelledby="sources-title">
            <h2 id="sources-title" className="text-base font-semibold">
              {t('knowledge.sources.listTitle', { count: sources.length })}
            </h2>
            <SourcesTable
              sources={sources}
              canWrite={props.canWrite}
              onReindex={(source) =>
                act(() =>
                  jsonFetch(`/vectors/${store.id}/sources/${source.id}/reindex`, { method: 'POST' })
                )
              }
              onDelete={(source) =>
                act(() =>
                  jsonFetch(`/vectors/${store.id}/sources/${source.id}`, { method: 'DELETE' })
                )
              }
            />
          </section>
        </div>
        <div className="grid content-start gap-4">
          <SearchBox storeId={store.id} />
          <CapabilitiesNote capabilities={props.capabilities} />
        </div>
      </div>
      {props.canWrite && (
        <>
          <StoreDialog
            store={store}
            credentials={props.embeddingCredentials}
            open={editing}
            onOpenChange={setEditing}
            onSaved={() => {
              setEditing(false)
              void refresh()
            }}
          />
          <AlertDialog open={deleting} onOpenChange={setDeleting}>
            <AlertDialogContent>
              <AlertDialogHeader>
                <AlertDialogTitle>
                  {t('knowledge.delete.title', { name: store.name })}
                </AlertDialogTitle>
                <AlertDialogDescription>{t('knowledge.delete.description')}</AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
                <AlertDialogAction
                  onClick={() =>
                    act(async () => {
                      await jsonFetch(`/vectors/${store.id}`, { method: 'DELETE' })
                      showToast('success', t('knowledge.delete.done'), store.name)
                      router.visit('/vectors')
                    })
                  }
                >
                  {t('knowledge.delete.confirm')}
                </AlertDialogAction>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </>
      )}
    </AppLayout>
  )
}
