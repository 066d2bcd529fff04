import { memo } from 'react'
import { Bot, User } from '../icons'
import { cn } from '~/lib/utils'
import { safeUrl } from '../rich_text_utils'

/** The bot's or the visitor's picture; an icon when the builder set none. */
export const ChatAvatar = memo(function ChatAvatarView({
  url,
  role,
}: {
  url?: string
  role: 'host' | 'guest'
}) {
  const src = safeUrl(url)
  const Icon = role === 'host' ? Bot : User
  return (
    <div
      className={cn(
        'fc-avatar flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full sm:size-9',
        role === 'host' ? 'fc-host-avatar' : 'fc-guest-avatar'
      )}
      aria-hidden
    >
      {src ? (
        <img src={src} alt="" className="size-full object-cover" />
      ) : (
        <Icon className="size-4 sm:size-5" />
      )}
    </div>
  )
})
