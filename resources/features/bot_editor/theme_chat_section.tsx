import { useTranslation } from 'react-i18next'
import { THEME_BOUNDS } from '#shared/bot/settings_bounds'
import type { Path } from './bot_paths'
import { useBotValue } from './bot_paths'
import {
  ColorField,
  FieldGroup,
  NumberField,
  SelectField,
  SwitchField,
  TextField,
  useValidators,
} from './editor_fields'

/** Theme tab, Chat: the container, both avatars, both bubbles, buttons and inputs. */
export function ThemeChatSection() {
  const { t } = useTranslation()
  const validators = useValidators()
  const container = ['chat', 'container']
  return (
    <>
      <FieldGroup title={t('theme.chat.container')} testId="theme-group-container">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            root="theme"
            path={[...container, 'maxWidth']}
            label={t('theme.chat.maxWidth')}
            placeholder="800px"
            validate={validators.cssLength}
          />
          <TextField
            root="theme"
            path={[...container, 'maxHeight']}
            label={t('theme.chat.maxHeight')}
            placeholder="100%"
            validate={validators.cssLength}
          />
        </div>
        <ElementFields base={container} />
      </FieldGroup>
      <AvatarFields role="hostAvatar" title={t('theme.chat.hostAvatar')} />
      <AvatarFields role="guestAvatar" title={t('theme.chat.guestAvatar')} />
      <FieldGroup title={t('theme.chat.hostBubbles')} testId="theme-group-host-bubbles">
        <ElementFields base={['chat', 'hostBubbles']} />
      </FieldGroup>
      <FieldGroup title={t('theme.chat.guestBubbles')} testId="theme-group-guest-bubbles">
        <ElementFields base={['chat', 'guestBubbles']} />
      </FieldGroup>
      <FieldGroup title={t('theme.chat.buttons')} testId="theme-group-buttons">
        <ElementFields base={['chat', 'buttons']} />
      </FieldGroup>
      <FieldGroup title={t('theme.chat.inputs')} testId="theme-group-inputs">
        <ElementFields base={['chat', 'inputs']} withPlaceholder />
      </FieldGroup>
    </>
  )
}

function AvatarFields({ role, title }: { role: 'hostAvatar' | 'guestAvatar'; title: string }) {
  const { t } = useTranslation()
  const validators = useValidators()
  const enabled = useBotValue<boolean>('theme', ['chat', role, 'isEnabled'])
  return (
    <FieldGroup title={title}>
      <SwitchField
        root="theme"
        path={['chat', role, 'isEnabled']}
        label={t('theme.chat.showAvatar')}
      />
      {enabled && (
        <TextField
          root="theme"
          path={['chat', role, 'url']}
          label={t('theme.chat.avatarUrl')}
          hint={t('theme.chat.avatarUrlHint')}
          placeholder="https://"
          type="url"
          validate={validators.url}
        />
      )}
    </FieldGroup>
  )
}

const SHADOWS = ['none', 'sm', 'md', 'lg', 'xl', '2xl'] as const
const ROUNDNESS = ['default', 'none', 'medium', 'large', 'custom'] as const

/** Colours, opacity, blur, shadow and border of one part of the chat. */
function ElementFields({
  base,
  withPlaceholder = false,
}: {
  base: Path
  withPlaceholder?: boolean
}) {
  const { t } = useTranslation()
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <ColorField
        root="theme"
        path={[...base, 'backgroundColor']}
        label={t('theme.chat.background')}
      />
      <ColorField root="theme" path={[...base, 'color']} label={t('theme.chat.text')} />
      {withPlaceholder && (
        <ColorField
          root="theme"
          path={[...base, 'placeholderColor']}
          label={t('theme.chat.placeholder')}
        />
      )}
      <NumberField
        root="theme"
        path={[...base, 'opacity']}
        label={t('theme.chat.opacity')}
        hint={t('theme.chat.opacityHint')}
        {...THEME_BOUNDS.opacity}
      />
      <NumberField
        root="theme"
        path={[...base, 'blur']}
        label={t('theme.chat.blur')}
        {...THEME_BOUNDS.blur}
        unit="px"
      />
      <SelectField
        root="theme"
        path={[...base, 'shadow']}
        label={t('theme.chat.shadow')}
        placeholder={t('theme.roundness.default')}
        options={SHADOWS.map((value) => ({ value, label: t(`theme.shadows.${value}`) }))}
      />
      <BorderFields base={[...base, 'border']} />
    </div>
  )
}

function BorderFields({ base }: { base: Path }) {
  const { t } = useTranslation()
  const roundness = useBotValue<string>('theme', [...base, 'roundeness'])
  return (
    <>
      <NumberField
        root="theme"
        path={[...base, 'thickness']}
        label={t('theme.chat.borderThickness')}
        {...THEME_BOUNDS.borderThickness}
        unit="px"
      />
      <ColorField root="theme" path={[...base, 'color']} label={t('theme.chat.borderColor')} />
      <SelectField
        root="theme"
        path={[...base, 'roundeness']}
        label={t('theme.chat.roundness')}
        placeholder={t('theme.roundness.default')}
        options={ROUNDNESS.map((value) => ({ value, label: t(`theme.roundness.${value}`) }))}
      />
      {roundness === 'custom' && (
        <NumberField
          root="theme"
          path={[...base, 'customRoundeness']}
          label={t('theme.chat.customRadius')}
          {...THEME_BOUNDS.customRoundness}
          unit="px"
        />
      )}
    </>
  )
}
