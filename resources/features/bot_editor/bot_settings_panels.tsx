import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import {
  resolveSettings,
  resolveTheme,
  type BotSettings,
  type BotTheme,
  type FontTheme,
} from '#shared/bot/types'
import { PluginForm } from '~/features/plugin_form/plugin_form'
import type { FormErrors, FormField } from '~/features/plugin_form/types'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'

/**
 * The Settings and Theme tabs: simple forms drawn by PluginForm from field descriptions
 * built here, saved with the bot (through the store, so undo and autosave apply).
 */

function field(
  name: string,
  kind: FormField['kind'],
  label: string,
  extra: Partial<FormField> = {}
): FormField {
  return { name, kind, label, i18nKey: `editor.${name}`, ...extra }
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="grid gap-4 rounded-xl border bg-card p-5">
      <h2 className="text-base font-semibold">{title}</h2>
      {children}
    </section>
  )
}

/**
 * One form bound to a part of the bot. The typed values are kept here; they reach the
 * bot only when `validate` finds no error, so an out-of-range value is never saved.
 */
function BoundForm({
  fields,
  value,
  validate,
  onCommit,
  readOnly,
  idPrefix,
  testId,
}: {
  fields: FormField[]
  value: Record<string, unknown>
  validate?: (value: Record<string, unknown>) => FormErrors
  onCommit: (value: Record<string, unknown>) => void
  readOnly: boolean
  idPrefix: string
  testId: string
}) {
  const [draft, setDraft] = useState<Record<string, unknown> | null>(null)
  const shown = draft ?? value
  const errors = validate ? validate(shown) : {}
  return (
    <PluginForm
      fields={fields}
      value={shown}
      errors={errors}
      readOnly={readOnly}
      idPrefix={idPrefix}
      testId={testId}
      onChange={(next) => {
        const nextErrors = validate ? validate(next) : {}
        if (Object.values(nextErrors).some(Boolean)) {
          setDraft(next)
        } else {
          setDraft(null)
          onCommit(next)
        }
      }}
    />
  )
}

function numberBetween(
  t: TFunction,
  value: unknown,
  min: number,
  max?: number
): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  const number = Number(value)
  if (!Number.isFinite(number)) return t('editor.settings.number')
  if (number < min || (max !== undefined && number > max)) {
    return max === undefined
      ? t('editor.settings.atLeast', { min })
      : t('editor.settings.between', { min, max })
  }
  return undefined
}

export function SettingsPanel() {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const readOnly = useBotEditor((state) => state.readOnly)
  const stored = useBotEditor((state) => state.history.present.settings)
  const settings = resolveSettings(stored)

  function commit<K extends keyof BotSettings>(key: K, value: Record<string, unknown>) {
    api.getState().edit(
      (bot) => ({
        ...bot,
        settings: { ...bot.settings, [key]: { ...bot.settings?.[key], ...value } },
      }),
      { coalesceKey: `settings:${key}` }
    )
  }

  const general = [
    field('isTypingEmulationEnabled', 'boolean', t('editor.settings.typingEmulationEnabled')),
    field('isInputPrefillEnabled', 'boolean', t('editor.settings.inputPrefill'), {
      helperText: t('editor.settings.inputPrefillHint'),
    }),
    field('isHideQueryParamsEnabled', 'boolean', t('editor.settings.hideQueryParams'), {
      helperText: t('editor.settings.hideQueryParamsHint'),
    }),
    field('isNewResultOnRefreshEnabled', 'boolean', t('editor.settings.newResultOnRefresh')),
  ]
  const typing = [
    field('speed', 'number', t('editor.settings.speed'), { min: 1, step: 1 }),
    field('maxDelay', 'number', t('editor.settings.maxDelay'), { min: 0, step: 0.1 }),
    field('delayBetweenBubbles', 'number', t('editor.settings.delayBetweenBubbles'), {
      min: 0,
      max: 5,
      step: 0.1,
    }),
    field('isDisabledOnFirstMessage', 'boolean', t('editor.settings.disabledOnFirstMessage')),
  ]
  const metadata = [
    field('title', 'string', t('editor.settings.metaTitle'), { allowVariables: true }),
    field('description', 'string', t('editor.settings.metaDescription'), {
      multiline: true,
      allowVariables: true,
    }),
    field('imageUrl', 'string', t('editor.settings.metaImage'), { placeholder: 'https://' }),
    field('favIconUrl', 'string', t('editor.settings.metaFavicon'), { placeholder: 'https://' }),
  ]

  return (
    <div className="h-full overflow-y-auto" data-testid="settings-panel">
      <div className="mx-auto grid max-w-2xl gap-6 p-6">
        <Section title={t('editor.settings.general')}>
          <BoundForm
            fields={general}
            value={settings.general ?? {}}
            onCommit={(value) => commit('general', value)}
            readOnly={readOnly}
            idPrefix="settings-general"
            testId="settings-general"
          />
        </Section>
        <Section title={t('editor.settings.typingEmulation')}>
          <BoundForm
            fields={typing}
            value={settings.typingEmulation ?? {}}
            validate={(value) => ({
              speed: numberBetween(t, value.speed, 1),
              maxDelay: numberBetween(t, value.maxDelay, 0),
              delayBetweenBubbles: numberBetween(t, value.delayBetweenBubbles, 0, 5),
            })}
            onCommit={(value) => commit('typingEmulation', value)}
            readOnly={readOnly}
            idPrefix="settings-typing"
            testId="settings-typing"
          />
        </Section>
        <Section title={t('editor.settings.metadata')}>
          <BoundForm
            fields={metadata}
            value={settings.metadata ?? {}}
            onCommit={(value) => commit('metadata', value)}
            readOnly={readOnly}
            idPrefix="settings-metadata"
            testId="settings-metadata"
          />
        </Section>
      </div>
    </div>
  )
}

function fontFamily(font: FontTheme | undefined) {
  if (typeof font === 'string') return font
  return font?.family ?? ''
}

export function ThemePanel() {
  const { t } = useTranslation()
  const api = useBotEditorApi()
  const readOnly = useBotEditor((state) => state.readOnly)
  const stored = useBotEditor((state) => state.history.present.theme)
  const theme = resolveTheme(stored)
  const general = theme.general ?? {}

  function commitGeneral(patch: NonNullable<BotTheme['general']>) {
    api.getState().edit(
      (bot) => ({
        ...bot,
        theme: { ...bot.theme, general: { ...bot.theme?.general, ...patch } },
      }),
      { coalesceKey: 'theme:general' }
    )
  }

  const backgroundFields = [
    field('type', 'enum', t('editor.theme.backgroundType'), {
      options: [
        { value: 'Color', label: t('editor.theme.color') },
        { value: 'Image', label: t('editor.theme.image') },
        { value: 'None', label: t('editor.theme.none') },
      ],
    }),
    field('content', 'string', t('editor.theme.backgroundColor'), {
      placeholder: '#ffffff',
      showIf: { field: 'type', equals: 'Color' },
    }),
    field('content', 'string', t('editor.theme.backgroundImage'), {
      placeholder: 'https://',
      showIf: { field: 'type', equals: 'Image' },
    }),
  ]
  const fontFields = [field('family', 'string', t('editor.theme.font'), { placeholder: 'Poppins' })]
  const progressFields = [field('isEnabled', 'boolean', t('editor.theme.progressBar'))]
  const cssFields = [
    field('customCss', 'code', t('editor.theme.customCss'), { lang: 'css', multiline: true }),
  ]

  return (
    <div className="h-full overflow-y-auto" data-testid="theme-panel">
      <div className="mx-auto grid max-w-2xl gap-6 p-6">
        <Section title={t('editor.theme.background')}>
          <BoundForm
            fields={backgroundFields}
            value={general.background ?? {}}
            onCommit={(value) =>
              commitGeneral({
                background: {
                  type: value.type as 'Color' | 'Image' | 'None',
                  content: typeof value.content === 'string' ? value.content : undefined,
                },
              })
            }
            readOnly={readOnly}
            idPrefix="theme-background"
            testId="theme-background"
          />
        </Section>
        <Section title={t('editor.theme.fontTitle')}>
          <BoundForm
            fields={fontFields}
            value={{ family: fontFamily(general.font) }}
            onCommit={(value) =>
              commitGeneral({ font: { type: 'Google', family: String(value.family ?? '') } })
            }
            readOnly={readOnly}
            idPrefix="theme-font"
            testId="theme-font"
          />
        </Section>
        <Section title={t('editor.theme.progressBarTitle')}>
          <BoundForm
            fields={progressFields}
            value={general.progressBar ?? {}}
            onCommit={(value) =>
              commitGeneral({
                progressBar: { ...general.progressBar, isEnabled: !!value.isEnabled },
              })
            }
            readOnly={readOnly}
            idPrefix="theme-progress"
            testId="theme-progress"
          />
        </Section>
        <Section title={t('editor.theme.customCssTitle')}>
          <BoundForm
            fields={cssFields}
            value={{ customCss: theme.customCss ?? '' }}
            onCommit={(value) =>
              api.getState().edit(
                (bot) => ({
                  ...bot,
                  theme: { ...bot.theme, customCss: String(value.customCss ?? '') },
                }),
                { coalesceKey: 'theme:css' }
              )
            }
            readOnly={readOnly}
            idPrefix="theme-css"
            testId="theme-css"
          />
        </Section>
      </div>
    </div>
  )
}
