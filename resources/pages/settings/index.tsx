import type { BillingTabDto } from '#shared/billing'
import { Head, Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import {
  BuildingIcon,
  CreditCardIcon,
  KeyRoundIcon,
  LockKeyholeIcon,
  ShieldCheckIcon,
  SlidersHorizontalIcon,
  UserIcon,
  UsersIcon,
  XIcon,
  type LucideIcon,
} from 'lucide-react'
import { Dialog as DialogPrimitive } from 'radix-ui'
import type { ApiTokenDto, InvitationDto, MemberDto } from '#shared/types'
import type { PlanDefinition } from '#shared/plans'
import { AppLayout } from '~/features/shell/app_layout'
import { BotsDashboard } from '~/features/bots/bots_dashboard'
import { DialogOverlay, DialogPortal } from '~/components/ui/dialog'
import { usePageProps } from '~/hooks/use_shared_props'
import { cn } from '~/lib/utils'
import { ProfileTab } from '~/features/settings/profile_tab'
import { PreferencesTab } from '~/features/settings/preferences_tab'
import { KeysTab, type CreatedToken } from '~/features/settings/keys_tab'
import { WorkspaceTab } from '~/features/settings/workspace_tab'
import { MembersTab } from '~/features/settings/members_tab'
import { BillingTab } from '~/features/settings/billing_tab'
import { SecurityTab } from '~/features/settings/security_tab'
import type { TwoFactorStatusDto } from '#shared/two_factor'
import {
  CredentialsTab,
  type CredentialRecordDto,
  type CredentialTypeDto,
} from '~/features/settings/credentials_tab'

interface Props {
  section: 'account' | 'workspace'
  tab: string
  photoMaxBytes: number
  apiTokens?: ApiTokenDto[]
  createdToken?: CreatedToken | null
  members?: MemberDto[]
  invitations?: InvitationDto[]
  memberLimit?: number
  plan?: PlanDefinition
  planExpired?: boolean
  billing?: BillingTabDto
  credentials?: CredentialRecordDto[]
  credentialTypes?: CredentialTypeDto[]
  twoFactor?: TwoFactorStatusDto
  recoveryCodes?: string[] | null
}

interface TabLink {
  section: 'account' | 'workspace'
  tab: string
  labelKey: string
  icon: LucideIcon
}

const TABS: TabLink[] = [
  { section: 'account', tab: 'profile', labelKey: 'settings.tabs.profile', icon: UserIcon },
  {
    section: 'account',
    tab: 'preferences',
    labelKey: 'settings.tabs.preferences',
    icon: SlidersHorizontalIcon,
  },
  {
    section: 'account',
    tab: 'security',
    labelKey: 'twoFactor.tab',
    icon: ShieldCheckIcon,
  },
  { section: 'account', tab: 'keys', labelKey: 'settings.tabs.keys', icon: KeyRoundIcon },
  {
    section: 'account',
    tab: 'credentials',
    labelKey: 'settings.tabs.credentials',
    icon: LockKeyholeIcon,
  },
  { section: 'workspace', tab: 'setting', labelKey: 'settings.tabs.setting', icon: BuildingIcon },
  { section: 'workspace', tab: 'member', labelKey: 'settings.tabs.member', icon: UsersIcon },
  { section: 'account', tab: 'billing', labelKey: 'settings.tabs.billing', icon: CreditCardIcon },
]

/** The settings modal: one route per tab, shown over the dashboard. */
export default function Settings(props: Props) {
  const { t } = useTranslation()
  const { appVersion } = usePageProps()
  const { section, tab } = props
  const active = TABS.find((item) => item.section === section && item.tab === tab)
  const title = active
    ? t(active.labelKey)
    : t(`settings.tabs.${tab}`, { defaultValue: t('settings.title') })

  function close() {
    router.visit('/bots')
  }

  return (
    <AppLayout>
      <Head title={`${title} · ${t('settings.title')}`} />
      <div aria-hidden className="pointer-events-none select-none">
        <BotsDashboard />
      </div>
      <DialogPrimitive.Root open onOpenChange={(open) => !open && close()}>
        <DialogPortal>
          <DialogOverlay />
          <DialogPrimitive.Content
            data-testid="settings-modal"
            aria-describedby={undefined}
            onInteractOutside={(event) => {
              // Clicking a toast must not close the settings.
              const target = event.target as HTMLElement | null
              if (target?.closest?.('[data-sonner-toaster]')) event.preventDefault()
            }}
            className="fixed top-1/2 left-1/2 z-50 flex h-[min(720px,calc(100dvh-2rem))] w-[min(1000px,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-xl border bg-background shadow-xl outline-none data-[state=open]:animate-in data-[state=open]:fade-in-0 data-[state=open]:zoom-in-95 md:flex-row"
          >
            <nav
              aria-label={t('settings.title')}
              className="flex shrink-0 flex-col border-b bg-muted/40 md:w-56 md:border-r md:border-b-0"
            >
              <p className="hidden px-4 pt-4 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase md:block">
                {t('settings.title')}
              </p>
              <ul className="flex gap-1 overflow-x-auto p-2 md:flex-col md:overflow-visible">
                {TABS.map((item, index) => {
                  const isActive = item === active
                  const Icon = item.icon
                  const startsWorkspace =
                    item.section === 'workspace' && TABS[index - 1]?.section !== 'workspace'
                  return (
                    <li key={item.tab} className={cn(startsWorkspace && 'md:mt-3')}>
                      <Link
                        href={`/settings/${item.section}/${item.tab}`}
                        preserveState
                        preserveScroll
                        data-testid={`settings-tab-${item.tab}`}
                        aria-current={isActive ? 'page' : undefined}
                        className={cn(
                          'flex items-center gap-2 rounded-md px-3 py-2 text-sm whitespace-nowrap text-muted-foreground outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
                          isActive && 'bg-background font-medium text-foreground shadow-xs'
                        )}
                      >
                        <Icon aria-hidden className="size-4 shrink-0" />
                        {t(item.labelKey)}
                      </Link>
                    </li>
                  )
                })}
              </ul>
              <p
                className="mt-auto hidden px-4 py-3 text-xs text-muted-foreground md:block"
                data-testid="app-version"
              >
                {t('settings.version', { version: appVersion })}
              </p>
            </nav>
            <div className="flex min-h-0 min-w-0 flex-1 flex-col">
              <div className="flex items-center justify-between gap-4 border-b px-6 py-4">
                <DialogPrimitive.Title
                  className="text-lg font-semibold"
                  data-testid="settings-title"
                >
                  {title}
                </DialogPrimitive.Title>
                <DialogPrimitive.Close
                  data-testid="settings-close"
                  className="rounded-sm p-1 opacity-70 transition-opacity outline-none hover:opacity-100 focus-visible:opacity-100 focus-visible:ring-[3px] focus-visible:ring-ring/50"
                >
                  <XIcon aria-hidden className="size-4" />
                  <span className="sr-only">{t('common.close')}</span>
                </DialogPrimitive.Close>
              </div>
              <div
                className="min-h-0 min-w-0 flex-1 overflow-y-auto px-6 py-5"
                data-testid={`settings-panel-${tab}`}
              >
                <SettingsPanel {...props} />
              </div>
              <p className="border-t px-6 py-2 text-xs text-muted-foreground md:hidden">
                {t('settings.version', { version: appVersion })}
              </p>
            </div>
          </DialogPrimitive.Content>
        </DialogPortal>
      </DialogPrimitive.Root>
    </AppLayout>
  )
}

function SettingsPanel(props: Props) {
  switch (props.tab) {
    case 'profile':
      return <ProfileTab photoMaxBytes={props.photoMaxBytes} />
    case 'preferences':
      return <PreferencesTab />
    case 'security':
      return <SecurityTab twoFactor={props.twoFactor} recoveryCodes={props.recoveryCodes} />
    case 'keys':
      return <KeysTab apiTokens={props.apiTokens ?? []} createdToken={props.createdToken ?? null} />
    case 'setting':
      return <WorkspaceTab />
    case 'member':
      return (
        <MembersTab
          members={props.members ?? []}
          invitations={props.invitations ?? []}
          memberLimit={props.memberLimit ?? 0}
        />
      )
    case 'billing':
      return (
        <BillingTab plan={props.plan} planExpired={props.planExpired} billing={props.billing} />
      )
    case 'credentials':
      return (
        <CredentialsTab
          credentials={props.credentials ?? []}
          credentialTypes={props.credentialTypes ?? []}
        />
      )
    default:
      return null
  }
}
