import { useMemo } from 'react'
import { resolveTheme, type BotTheme } from '#shared/bot/types'
import { backgroundStyle, themeVariables } from './theme'
import './chat.css'

/** The chat's shape in the bot's colours while the first reply is on its way. */
export function ChatSkeleton({ theme }: { theme?: BotTheme }) {
  const resolved = useMemo(() => resolveTheme(theme), [theme])
  const style = useMemo(
    () => ({ ...themeVariables(resolved), ...backgroundStyle(resolved) }),
    [resolved]
  )
  const avatar = resolved.chat?.hostAvatar?.isEnabled !== false
  return (
    <div
      className="fc-root flex h-full w-full flex-col items-center"
      style={style}
      aria-busy
      data-testid="chat-skeleton"
    >
      <div className="fc-chat-container flex h-full flex-col gap-3 px-3 pt-6 sm:px-5">
        {['w-48', 'w-64', 'w-40'].map((width, index) => (
          <div key={width} className="flex items-end gap-2">
            {avatar &&
              (index === 2 ? (
                <div className="fc-host-avatar size-8 shrink-0 animate-pulse rounded-full sm:size-9" />
              ) : (
                <div className="w-8 shrink-0 sm:w-9" />
              ))}
            <div className={`fc-host-bubble h-10 max-w-full animate-pulse ${width}`} />
          </div>
        ))}
        <div className="fc-input ms-auto h-12 w-full max-w-md animate-pulse" />
      </div>
    </div>
  )
}
