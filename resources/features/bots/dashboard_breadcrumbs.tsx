import { Fragment } from 'react'
import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { ChevronRightIcon } from 'lucide-react'
import { cn } from '~/lib/utils'
import { useBotDropTarget } from './use_bot_drag'
import { folderHref, type Breadcrumb } from './types'

/** An ancestor in the trail: a link that also takes dropped bots (moves them up). */
function Crumb({
  id,
  name,
  readOnly,
  onDropBot,
}: {
  id: string | null
  name: string
  readOnly: boolean
  onDropBot: (botId: string, folderId: string | null, folderName: string) => void
}) {
  const { over, dropProps } = useBotDropTarget((botId) => onDropBot(botId, id, name), readOnly)
  return (
    <Link
      href={folderHref(id)}
      data-testid="breadcrumb-link"
      data-drop-target={over || undefined}
      {...dropProps}
      className={cn(
        'max-w-48 truncate rounded-md px-1.5 py-0.5 text-muted-foreground outline-none hover:text-foreground hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50',
        over && 'bg-primary/10 text-primary ring-2 ring-primary/40'
      )}
    >
      {name}
    </Link>
  )
}

/** "My bots > Folder > Sub-folder": the way back up from a folder. */
export function DashboardBreadcrumbs({
  breadcrumbs,
  readOnly,
  onDropBot,
}: {
  breadcrumbs: Breadcrumb[]
  readOnly: boolean
  onDropBot: (botId: string, folderId: string | null, folderName: string) => void
}) {
  const { t } = useTranslation()
  const ancestors = breadcrumbs.slice(0, -1)
  const current = breadcrumbs.at(-1)
  return (
    <nav aria-label={t('bots.breadcrumb')} data-testid="breadcrumb" className="min-w-0">
      <ol className="-ml-1.5 flex flex-wrap items-center gap-0.5 text-sm">
        <li>
          <Crumb id={null} name={t('bots.title')} readOnly={readOnly} onDropBot={onDropBot} />
        </li>
        {ancestors.map((crumb) => (
          <Fragment key={crumb.id}>
            <li aria-hidden>
              <ChevronRightIcon className="size-3.5 text-muted-foreground" />
            </li>
            <li>
              <Crumb id={crumb.id} name={crumb.name} readOnly={readOnly} onDropBot={onDropBot} />
            </li>
          </Fragment>
        ))}
        {current && (
          <>
            <li aria-hidden>
              <ChevronRightIcon className="size-3.5 text-muted-foreground" />
            </li>
            <li>
              <span aria-current="page" className="block max-w-48 truncate px-1.5 font-medium">
                {current.name}
              </span>
            </li>
          </>
        )}
      </ol>
    </nav>
  )
}
