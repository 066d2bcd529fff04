import { Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CoinsIcon, LogOutIcon, PuzzleIcon, SettingsIcon } from 'lucide-react'
import { usePageProps } from '~/hooks/use_shared_props'
import { logout } from '~/features/auth/clear_two_factor'
import { cn, initials } from '~/lib/utils'
import { Avatar, AvatarFallback, AvatarImage } from '~/components/ui/avatar'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown_menu'

export function UserAvatar({
  name,
  email,
  image,
  className,
}: {
  name: string | null
  email: string
  image: string | null
  className?: string
}) {
  return (
    <Avatar className={className}>
      {image && <AvatarImage src={image} alt="" />}
      <AvatarFallback>{initials(name || email)}</AvatarFallback>
    </Avatar>
  )
}

/** Avatar, name and e-mail; Settings, Plugins (instance admins) and Log out. */
export function UserMenu({
  compact = false,
  className,
}: {
  compact?: boolean
  className?: string
}) {
  const { t } = useTranslation()
  const { user } = usePageProps()
  if (!user) return null

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        data-testid="user-menu"
        className={cn(
          'flex min-w-0 items-center gap-2 rounded-md p-1.5 text-left text-sm outline-none hover:bg-sidebar-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 data-[state=open]:bg-sidebar-accent',
          className
        )}
      >
        {/* Named by what it shows, after what it does (WCAG 2.5.3, label in name). */}
        <span className="sr-only">{`${t('userMenu.label')}: `}</span>
        <UserAvatar name={user.name} email={user.email} image={user.image} />
        <span className={cn('min-w-0 flex-1', compact && 'hidden md:block')}>
          <span className="block truncate font-medium">{user.name || user.email}</span>
          {user.name && (
            <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
          )}
        </span>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" side="top" className="w-60">
        <DropdownMenuLabel className="font-normal">
          <span className="block truncate text-sm font-medium text-foreground">
            {user.name || user.email}
          </span>
          <span className="block truncate text-xs">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/settings/account/profile" data-testid="user-menu-settings">
            <SettingsIcon aria-hidden />
            {t('userMenu.settings')}
          </Link>
        </DropdownMenuItem>
        {user.isAdmin && (
          <DropdownMenuItem asChild>
            <Link href="/admin/plugins" data-testid="admin-plugins">
              <PuzzleIcon aria-hidden />
              {t('adminPlugins.menu')}
            </Link>
          </DropdownMenuItem>
        )}
        {user.isAdmin && (
          <DropdownMenuItem asChild>
            <Link href="/admin/ai-prices" data-testid="admin-ai-prices">
              <CoinsIcon aria-hidden />
              {t('adminAiPrices.title')}
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem data-testid="logout" onSelect={() => void logout()}>
          <LogOutIcon aria-hidden />
          {t('userMenu.logout')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
