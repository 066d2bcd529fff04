import { useEffect, type ReactNode } from 'react'
import { Link, usePage } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  BotIcon,
  DatabaseIcon,
  SettingsIcon,
  ShieldIcon,
  WorkflowIcon,
  type LucideIcon,
} from 'lucide-react'
import { cn } from '~/lib/utils'
import { PageEffects } from '~/components/page_effects'
import { usePageProps } from '~/hooks/use_shared_props'
import { WorkspaceSwitcher } from './workspace_switcher'
import { UserMenu } from './user_menu'
import { TourHost } from '~/features/onboarding/tour_host'
import { HelpMenu } from '~/features/onboarding/help_menu'
import { OnboardingChecklist } from '~/features/onboarding/onboarding_checklist'
import { SupportWidget } from '~/features/onboarding/support_widget'

interface NavItem {
  href: string
  /** paths that count as this item being active */
  match: string
  labelKey: string
  icon: LucideIcon
  testId: string
}

const NAV: NavItem[] = [
  { href: '/bots', match: '/bots', labelKey: 'nav.bots', icon: BotIcon, testId: 'nav-bots' },
  {
    href: '/workflows',
    match: '/workflows',
    labelKey: 'nav.workflows',
    icon: WorkflowIcon,
    testId: 'nav-workflows',
  },
  {
    href: '/vectors',
    match: '/vectors',
    labelKey: 'nav.vectors',
    icon: DatabaseIcon,
    testId: 'nav-vectors',
  },
  {
    href: '/settings/account/profile',
    match: '/settings',
    labelKey: 'nav.settings',
    icon: SettingsIcon,
    testId: 'nav-settings',
  },
]

/** Shown to instance admins (ADMIN_EMAILS) only: the plan administration page. */
const ADMIN_NAV: NavItem = {
  href: '/admin/workspaces',
  match: '/admin',
  labelKey: 'planAdmin.sidebar',
  icon: ShieldIcon,
  testId: 'nav-admin',
}

function pathOf(url: string) {
  return url.split(/[?#]/)[0]
}

function isActive(path: string, match: string) {
  return path === match || path.startsWith(match + '/')
}

/** Editor-like pages (…/edit, …/analytics) own the whole viewport: no body scroll. */
function useBodyScrollLock(path: string) {
  const locked = /\/(edit|analytics)$/.test(path)
  useEffect(() => {
    document.body.classList.toggle('no-scroll', locked)
    return () => document.body.classList.remove('no-scroll')
  }, [locked])
}

/**
 * The application shell: a left sidebar (workspace switcher, navigation, user menu) that
 * becomes a top bar on narrow screens.
 */
export function AppLayout({ children, className }: { children: ReactNode; className?: string }) {
  const { t } = useTranslation()
  const { url } = usePage()
  const { user } = usePageProps()
  const path = pathOf(url)
  useBodyScrollLock(path)
  const nav = user?.isAdmin ? [...NAV, ADMIN_NAV] : NAV

  return (
    <div className="flex min-h-dvh flex-col md:flex-row">
      <PageEffects />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-[3px] focus:ring-ring/50"
      >
        {t('nav.skipToContent')}
      </a>
      <aside
        aria-label={t('nav.sidebar')}
        className="sticky top-0 z-30 flex h-14 shrink-0 items-center gap-2 border-b border-sidebar-border bg-sidebar px-2 text-sidebar-foreground md:h-dvh md:w-60 md:flex-col md:items-stretch md:gap-4 md:border-r md:border-b-0 md:px-3 md:py-3"
      >
        <WorkspaceSwitcher compact className="max-w-[40%] md:w-full md:max-w-none" />
        <nav aria-label={t('nav.main')} className="min-w-0 flex-1 md:flex-none">
          <ul className="flex items-center gap-1 md:flex-col md:items-stretch">
            {nav.map((item) => {
              const active = isActive(path, item.match)
              const Icon = item.icon
              return (
                <li key={item.href}>
                  <Link
                    href={item.href}
                    data-testid={item.testId}
                    data-tour={item.testId}
                    aria-current={active ? 'page' : undefined}
                    data-active={active || undefined}
                    className={cn(
                      'flex items-center gap-2 rounded-md px-2.5 py-2 text-sm font-medium text-muted-foreground outline-none transition-colors hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
                      active && 'bg-sidebar-accent text-sidebar-accent-foreground'
                    )}
                  >
                    <Icon aria-hidden className="size-4 shrink-0" />
                    <span className="sr-only lg:not-sr-only md:not-sr-only">
                      {t(item.labelKey)}
                    </span>
                  </Link>
                </li>
              )
            })}
          </ul>
        </nav>
        <div className="flex items-center gap-1 md:mt-auto md:flex-col md:items-stretch">
          <HelpMenu className="md:w-full" />
          <UserMenu className="md:w-full" compact />
        </div>
      </aside>
      <main id="main" tabIndex={-1} className={cn('min-w-0 flex-1 outline-none', className)}>
        {children}
      </main>
      <OnboardingChecklist />
      <SupportWidget />
      <TourHost />
    </div>
  )
}

/** A page's heading row inside the shell. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string
  description?: string
  actions?: ReactNode
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-4 border-b px-6 py-5">
      <div className="min-w-0">
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex items-center gap-2">{actions}</div>}
    </div>
  )
}
