import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SearchIcon } from 'lucide-react'
import type { KnowledgeSearchResult } from '#shared/knowledge'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, Label } from '~/components/ui/label'
import { errorDescription, jsonFetch } from '~/lib/http'
import { clientPlugin } from '~/lib/plugin_registry'

/** "Search this store": the chunks a lookup would return, with their scores. */
export function SearchBox({ storeId }: { storeId: string }) {
  const { t } = useTranslation()
  const id = useId()
  const [query, setQuery] = useState('')
  const [limit, setLimit] = useState(5)
  const [searching, setSearching] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [result, setResult] = useState<KnowledgeSearchResult | null>(null)

  async function search(event: React.FormEvent) {
    event.preventDefault()
    if (!query.trim()) return
    setSearching(true)
    setError(null)
    try {
      setResult(
        await jsonFetch<KnowledgeSearchResult>(`/vectors/${storeId}/search`, {
          method: 'POST',
          body: { query, limit },
        })
      )
    } catch (failure) {
      setError(errorDescription(failure))
    } finally {
      setSearching(false)
    }
  }

  return (
    <section className="grid gap-3" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-base font-semibold">
        {t('knowledge.search.title')}
      </h2>
      <form className="flex flex-wrap items-end gap-2" onSubmit={search} role="search">
        <div className="grid min-w-0 flex-1 gap-1.5">
          <Label htmlFor={`${id}-query`}>{t('knowledge.search.query')}</Label>
          <Input
            id={`${id}-query`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder={t('knowledge.search.placeholder')}
            data-testid="store-search"
          />
        </div>
        <div className="grid w-24 gap-1.5">
          <Label htmlFor={`${id}-limit`}>{t('knowledge.search.limit')}</Label>
          <Input
            id={`${id}-limit`}
            type="number"
            min={1}
            max={50}
            value={limit}
            onChange={(e) => setLimit(Math.min(50, Math.max(1, Number(e.target.value) || 1)))}
          />
        </div>
        <Button
          type="submit"
          disabled={searching || !query.trim()}
          data-testid="store-search-submit"
        >
          <SearchIcon aria-hidden />
          {searching ? t('knowledge.search.searching') : t('knowledge.search.submit')}
        </Button>
      </form>
      <FieldError>{error}</FieldError>
      {result && (
        <div className="grid gap-2" aria-live="polite" data-testid="search-results">
          <p className="text-xs text-muted-foreground">
            {t(`knowledge.search.mode.${result.mode}`, {
              name: clientPlugin(result.backend ?? '')?.name ?? result.backend,
            })}
            {result.warning ? ` · ${result.warning}` : ''}
          </p>
          {result.hits.length === 0 ? (
            <p className="text-sm text-muted-foreground" data-testid="search-empty">
              {t('knowledge.search.empty')}
            </p>
          ) : (
            <ol className="grid gap-2">
              {result.hits.map((hit, index) => (
                <li
                  key={hit.chunkId}
                  className="grid gap-1 rounded-md border p-3"
                  data-testid="search-hit"
                >
                  <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted-foreground">
                    <span className="truncate">
                      {index + 1}. {hit.sourceName} ·{' '}
                      {t('knowledge.search.chunk', { number: hit.position + 1 })}
                    </span>
                    <span className="font-mono" data-testid="search-score">
                      {t('knowledge.search.score', { score: hit.score })}
                      {hit.keywordScore !== null &&
                        ` · ${t('knowledge.search.keywordScore', { score: hit.keywordScore })}`}
                      {hit.vectorScore !== null &&
                        ` · ${t('knowledge.search.vectorScore', { score: hit.vectorScore })}`}
                    </span>
                  </div>
                  <p className="text-sm whitespace-pre-wrap">{hit.content}</p>
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  )
}
