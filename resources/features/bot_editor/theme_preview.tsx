import { useId, useMemo, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { BotIcon, UserIcon } from 'lucide-react'
import { resolveTheme, type AvatarTheme, type BotTheme } from '#shared/bot/types'
import { backgroundStyle, scopedCustomCss, themeVariables } from '~/features/viewer/theme'
import '~/features/viewer/chat.css'
import { cn } from '~/lib/utils'
import { useBotEditor } from './bot_editor_store'

/**
 * A small chat drawn with the same CSS variables and classes as the real chat (the
 * viewer's theme.ts and chat.css), so every change of the Theme tab shows here at once.
 */
export function ThemePreview() {
  const { t } = useTranslation()
  const stored = useBotEditor((state) => state.history.present.theme)
  const theme = useMemo(() => resolveTheme(stored), [stored])
  const rootId = useId()
  const style = useMemo(
    () => ({ ...themeVariables(theme), ...backgroundStyle(theme) }) as CSSProperties,
    [theme]
  )
  const customCss = scopedCustomCss(theme.customCss, `[data-theme-preview="${rootId}"]`)
  const chat = theme.chat ?? {}
  const bar = theme.general?.progressBar

  return (
    <div className="grid gap-2">
      <h2 className="text-sm font-semibold">{t('theme.preview.title')}</h2>
      <div
        data-testid="theme-preview"
        data-theme-preview={rootId}
        aria-label={t('theme.preview.label')}
        role="img"
        className="fc-root relative overflow-hidden rounded-xl border"
        style={style}
      >
        {customCss && <style>{customCss}</style>}
        {bar?.isEnabled && <PreviewProgress theme={theme} />}
        <div className="fc-chat-container mx-auto flex min-h-80 flex-col gap-3 p-4">
          <div className="flex items-end gap-2">
            <PreviewAvatar avatar={chat.hostAvatar} role="host" />
            <p
              data-testid="preview-host-bubble"
              className="fc-host-bubble max-w-[75%] px-4 py-2 text-sm"
            >
              {t('theme.preview.hostMessage')}
            </p>
          </div>
          <div className="flex items-end justify-end gap-2">
            <p
              data-testid="preview-guest-bubble"
              className="fc-guest-bubble max-w-[75%] px-4 py-2 text-sm"
            >
              {t('theme.preview.guestMessage')}
            </p>
            <PreviewAvatar avatar={chat.guestAvatar} role="guest" />
          </div>
          <div className="flex justify-end">
            <span data-testid="preview-button" className="fc-button px-4 py-2 text-sm font-medium">
              {t('theme.preview.button')}
            </span>
          </div>
          <div data-testid="preview-input" className="fc-input mt-auto flex items-center gap-2 p-1">
            {/* Inert: a picture of a field, which no one can focus (axe: nested-interactive). */}
            <input
              readOnly
              inert
              tabIndex={-1}
              aria-hidden
              placeholder={t('theme.preview.placeholder')}
              className="fc-input-field min-w-0 flex-1 bg-transparent px-3 py-2 text-sm outline-none"
            />
            <span className="fc-button px-3 py-1.5 text-sm">{t('theme.preview.send')}</span>
          </div>
        </div>
      </div>
    </div>
  )
}

function PreviewAvatar({ avatar, role }: { avatar?: AvatarTheme; role: 'host' | 'guest' }) {
  if (!avatar?.isEnabled) return null
  const Icon = role === 'host' ? BotIcon : UserIcon
  const src = avatar.url && /^https?:\/\//i.test(avatar.url) ? avatar.url : undefined
  return (
    <span
      data-testid={`preview-${role}-avatar`}
      className={cn(
        'fc-avatar flex size-8 shrink-0 items-center justify-center overflow-hidden rounded-full',
        role === 'host' ? 'fc-host-avatar' : 'fc-guest-avatar'
      )}
    >
      {src ? (
        <img src={src} alt="" className="size-full object-cover" />
      ) : (
        <Icon className="size-4" />
      )}
    </span>
  )
}

function PreviewProgress({ theme }: { theme: BotTheme }) {
  const bar = theme.general?.progressBar
  return (
    <div
      data-testid="preview-progress"
      className={cn(
        'absolute inset-x-0 z-10 h-(--fc-progress-thickness) bg-(--fc-progress-bg)',
        bar?.placement === 'Bottom' ? 'bottom-0' : 'top-0'
      )}
    >
      <div className="h-full w-2/5 bg-(--fc-progress-color)" />
    </div>
  )
}
