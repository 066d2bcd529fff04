import { useTranslation } from 'react-i18next'
import { THEME_BOUNDS } from '#shared/bot/settings_bounds'
import type { FontTheme } from '#shared/bot/types'
import { useBotValue, useBotWriter } from './bot_paths'
import { BrandingSwitch } from './branding_switch'
import {
  ColorField,
  FieldGroup,
  NumberField,
  SelectField,
  SwitchField,
  TextField,
  useValidators,
} from './editor_fields'
import { GOOGLE_FONTS } from './theme_presets'

/** Theme tab, Global: background, font, brand display, progress bar, custom CSS. */
export function ThemeGlobalSection() {
  const { t } = useTranslation()
  return (
    <>
      <BackgroundFields />
      <FontFields />
      <FieldGroup title={t('theme.global.brandTitle')}>
        <BrandingSwitch testId="theme-branding" />
      </FieldGroup>
      <ProgressBarFields />
      <FieldGroup
        title={t('theme.global.customCssTitle')}
        description={t('theme.global.customCssHint')}
      >
        <TextField
          root="theme"
          path={['customCss']}
          label={t('theme.global.customCss')}
          placeholder=".fc-host-bubble { letter-spacing: 0.01em; }"
          multiline
          monospace
        />
      </FieldGroup>
    </>
  )
}

function BackgroundFields() {
  const { t } = useTranslation()
  const validators = useValidators()
  const type = useBotValue<string>('theme', ['general', 'background', 'type'])
  const write = useBotWriter('theme')
  return (
    <FieldGroup title={t('theme.global.background')}>
      <SelectField
        root="theme"
        path={['general', 'background', 'type']}
        label={t('theme.global.backgroundType')}
        options={[
          { value: 'Color', label: t('theme.global.color') },
          { value: 'Image', label: t('theme.global.image') },
          { value: 'None', label: t('theme.global.none') },
        ]}
        // A colour is no image URL: the content starts over with the type.
        onChange={(value) =>
          write([
            [['general', 'background', 'type'], value],
            [['general', 'background', 'content'], value === 'Color' ? '#ffffff' : undefined],
          ])
        }
      />
      {type === 'Color' && (
        <ColorField
          root="theme"
          path={['general', 'background', 'content']}
          label={t('theme.global.backgroundColor')}
        />
      )}
      {type === 'Image' && (
        <TextField
          root="theme"
          path={['general', 'background', 'content']}
          testId="theme-general-background-image"
          label={t('theme.global.backgroundImage')}
          placeholder="https://"
          type="url"
          validate={validators.url}
        />
      )}
    </FieldGroup>
  )
}

function familyOf(font: FontTheme | undefined) {
  return (typeof font === 'string' ? font : font?.family) ?? ''
}

function FontFields() {
  const { t } = useTranslation()
  const font = useBotValue<FontTheme>('theme', ['general', 'font'])
  const write = useBotWriter('theme')
  const type = typeof font === 'object' && font.type === 'Custom' ? 'Custom' : 'Google'
  const family = familyOf(font)
  // A family set elsewhere (an import) stays choosable.
  const families =
    GOOGLE_FONTS.includes(family as (typeof GOOGLE_FONTS)[number]) || !family
      ? GOOGLE_FONTS
      : [family, ...GOOGLE_FONTS]
  const setFont = (next: FontTheme) => write([[['general', 'font'], next]])

  return (
    <FieldGroup title={t('theme.global.font')} description={t('theme.global.fontHint')}>
      <SelectField
        root="theme"
        path={['general', 'font', 'type']}
        label={t('theme.global.fontType')}
        options={[
          { value: 'Google', label: t('theme.global.fontGoogle') },
          { value: 'Custom', label: t('theme.global.fontCustom') },
        ]}
        onChange={(value) =>
          setFont(
            value === 'Custom'
              ? { type: 'Custom', family, css: '' }
              : { type: 'Google', family: family || 'Poppins' }
          )
        }
      />
      {type === 'Google' ? (
        <SelectField
          root="theme"
          path={['general', 'font', 'family']}
          label={t('theme.global.fontFamily')}
          options={families.map((name) => ({ value: name, label: name }))}
          onChange={(value) => setFont({ type: 'Google', family: value })}
        />
      ) : (
        <>
          <TextField
            root="theme"
            path={['general', 'font', 'family']}
            label={t('theme.global.fontFamily')}
            placeholder="My font"
          />
          <TextField
            root="theme"
            path={['general', 'font', 'css']}
            label={t('theme.global.fontCss')}
            hint={t('theme.global.fontCssHint')}
            placeholder="@font-face { font-family: 'My font'; src: url(/fonts/my-font.woff2); }"
            multiline
            monospace
          />
        </>
      )}
    </FieldGroup>
  )
}

function ProgressBarFields() {
  const { t } = useTranslation()
  const enabled = useBotValue<boolean>('theme', ['general', 'progressBar', 'isEnabled'])
  const base = ['general', 'progressBar'] as const
  return (
    <FieldGroup title={t('theme.global.progressBar')}>
      <SwitchField
        root="theme"
        path={[...base, 'isEnabled']}
        label={t('theme.global.progressBarEnabled')}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <ColorField
          root="theme"
          path={[...base, 'color']}
          label={t('theme.global.progressColor')}
          disabled={!enabled}
        />
        <ColorField
          root="theme"
          path={[...base, 'backgroundColor']}
          label={t('theme.global.progressBackground')}
          disabled={!enabled}
        />
        <SelectField
          root="theme"
          path={[...base, 'placement']}
          label={t('theme.global.placement')}
          disabled={!enabled}
          options={[
            { value: 'Top', label: t('theme.global.top') },
            { value: 'Bottom', label: t('theme.global.bottom') },
          ]}
        />
        <SelectField
          root="theme"
          path={[...base, 'position']}
          label={t('theme.global.position')}
          disabled={!enabled}
          options={[
            { value: 'absolute', label: t('theme.global.absolute') },
            { value: 'fixed', label: t('theme.global.fixed') },
          ]}
        />
        <NumberField
          root="theme"
          path={[...base, 'thickness']}
          label={t('theme.global.thickness')}
          {...THEME_BOUNDS.progressBarThickness}
          unit="px"
          disabled={!enabled}
        />
      </div>
    </FieldGroup>
  )
}
