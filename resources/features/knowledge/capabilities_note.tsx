import { useTranslation } from 'react-i18next'
import type { SearchCapabilities } from '#shared/knowledge'

/** What search uses on this server's database (docs/knowledge.md). */
export function CapabilitiesNote({ capabilities }: { capabilities: SearchCapabilities }) {
  const { t } = useTranslation()
  return (
    <p className="text-xs text-muted-foreground" data-testid="search-capabilities">
      {t('knowledge.capabilities', {
        keyword: t(`knowledge.keywordEngines.${capabilities.keyword}`),
        vector: t(`knowledge.vectorEngines.${capabilities.vector}`),
      })}
    </p>
  )
}
