import { usePage } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BookOpenIcon, CircleHelpIcon, LifeBuoyIcon, MapIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'
import { cn } from '~/lib/utils'
import { usePageProps } from '~/hooks/use_shared_props'
import { TOURS, pathOf, type Tour } from './tours'
import { startTour } from './tour_host'
import { openSupportChat } from './support_widget'

/** The tours this page can run: the dashboard ones anywhere, an editor's only in it. */
function toursFor(path: string): Tour[] {
  return Object.values(TOURS).filter((tour) => tour.href || tour.startsOn.test(path))
}

/** Help: take any tour again, read the documentation, reach support where the chat is on. */
export function HelpMenu({
  className,
  compact = false,
}: {
  className?: string
  compact?: boolean
}) {
  const { t } = useTranslation()
  const { url } = usePage()
  const { supportWidget, docsUrl } = usePageProps()
  const tours = toursFor(pathOf(url))

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size={compact ? 'icon-sm' : 'sm'}
          data-testid="help-menu"
          data-tour="help-menu"
          aria-label={t('onboarding.help.label')}
          className={cn(!compact && 'justify-start', className)}
        >
          <CircleHelpIcon aria-hidden />
          {!compact && <span className="hidden md:inline">{t('onboarding.help.button')}</span>}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel>{t('onboarding.help.tours')}</DropdownMenuLabel>
        {tours.map((tour) => (
          <DropdownMenuItem
            key={tour.id}
            data-testid={`start-tour-${tour.id}`}
            onSelect={() => startTour(tour.id)}
          >
            <MapIcon aria-hidden />
            {t(`onboarding.help.${tour.id}`)}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <a href={docsUrl} target="_blank" rel="noreferrer" data-testid="help-docs">
            <BookOpenIcon aria-hidden />
            {t('docs.title')}
          </a>
        </DropdownMenuItem>
        {supportWidget && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem data-testid="open-support" onSelect={() => openSupportChat()}>
              <LifeBuoyIcon aria-hidden />
              {t('onboarding.help.support')}
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
