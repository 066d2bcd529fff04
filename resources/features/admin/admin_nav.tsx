import { Link, usePage } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { cn } from '~/lib/utils'

const PAGES = [
  {
    href: '/admin/workspaces',
    labelKey: 'planAdmin.nav',
    testId: 'admin-nav-workspaces',
  },
  { href: '/admin/plugins', labelKey: 'adminAiPrices.nav.plugins', testId: 'admin-nav-plugins' },
  {
    href: '/admin/ai-prices',
    labelKey: 'adminAiPrices.nav.aiPrices',
    testId: 'admin-nav-ai-prices',
  },
]

/** Moves between the instance admin pages (ADMIN_EMAILS). */
export function AdminNav() {
  const { t } = useTranslation()
  const { url } = usePage()
  return (
    <nav aria-label={t('adminAiPrices.nav.label')} className="flex gap-1 border-b px-6">
      {PAGES.map((page) => {
        const path = url.split(/[?#]/)[0]
        const current = path === page.href || path.startsWith(`${page.href}/`)
        return (
          <Link
            key={page.href}
            href={page.href}
            aria-current={current ? 'page' : undefined}
            data-testid={page.testId}
            className={cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              current
                ? 'border-primary text-foreground'
                : 'border-transparent text-muted-foreground hover:text-foreground'
            )}
          >
            {t(page.labelKey)}
          </Link>
        )
      })}
    </nav>
  )
}
