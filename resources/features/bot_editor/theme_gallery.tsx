import { useMemo, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckIcon } from 'lucide-react'
import { resolveTheme, type BotTheme, type BotV6 } from '#shared/bot/types'
import { backgroundStyle, themeVariables } from '~/features/viewer/theme'
import '~/features/viewer/chat.css'
import { cn } from '~/lib/utils'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { FieldGroup } from './editor_fields'
import { THEME_PRESETS } from './theme_presets'

/**
 * A template's theme replaces the bot's, except the builder's own custom CSS, which is
 * kept. The template id is remembered so the gallery shows which one is in use.
 */
export function applyThemeTemplate(bot: BotV6, templateId: string, theme: BotTheme): BotV6 {
  return {
    ...bot,
    theme: { ...structuredClone(theme), customCss: bot.theme?.customCss ?? '' },
    selectedThemeTemplateId: templateId,
  }
}

/** Theme tab, Templates: our built-in themes; clicking one applies it. */
export function ThemeGallery() {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const readOnly = useBotEditor((state) => state.readOnly)
  const selected = useBotEditor((state) => state.history.present.selectedThemeTemplateId)

  return (
    <FieldGroup title={t('theme.templates.title')} description={t('theme.templates.hint')}>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="theme-gallery">
        {THEME_PRESETS.map((preset) => (
          <li key={preset.id}>
            <ThemeSwatchButton
              theme={preset.theme}
              label={t(`theme.presets.${preset.labelKey}`)}
              selected={selected === preset.id}
              disabled={readOnly}
              testId={`theme-preset-${preset.id}`}
              onClick={() =>
                api.getState().edit((bot) => applyThemeTemplate(bot, preset.id, preset.theme), {
                  coalesceKey: 'theme:template',
                })
              }
            />
          </li>
        ))}
      </ul>
    </FieldGroup>
  )
}

/** A miniature of a theme (background, both bubbles, a button) as a pressable card. */
export function ThemeSwatchButton({
  theme,
  label,
  selected,
  disabled,
  testId,
  onClick,
}: {
  theme: BotTheme
  label: string
  selected: boolean
  disabled?: boolean
  testId: string
  onClick: () => void
}) {
  const style = useMemo(() => {
    const resolved = resolveTheme(theme)
    return { ...themeVariables(resolved), ...backgroundStyle(resolved) } as CSSProperties
  }, [theme])
  return (
    <button
      type="button"
      data-testid={testId}
      aria-pressed={selected}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        'group grid w-full gap-2 rounded-lg border bg-background p-2 text-left text-sm outline-none hover:border-primary/60 focus-visible:ring-2 focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-60',
        selected && 'border-primary ring-2 ring-primary/30'
      )}
    >
      <span
        className="fc-root grid h-20 content-center gap-1.5 rounded-md border p-2"
        style={style}
        aria-hidden
      >
        <span className="fc-host-bubble h-3 w-3/5" />
        <span className="fc-guest-bubble h-3 w-2/5 justify-self-end" />
        <span className="fc-button h-3 w-1/3 justify-self-end" />
      </span>
      <span className="flex items-center justify-between gap-1 font-medium">
        <span className="truncate">{label}</span>
        {selected && <CheckIcon className="size-4 shrink-0 text-primary" />}
      </span>
    </button>
  )
}
