import { useTranslation } from 'react-i18next'
import { GTM_ID_PATTERN, SETTINGS_BOUNDS } from '#shared/bot/settings_bounds'
import { AllowedOriginsField } from './allowed_origins_field'
import { useBotValue, useBotWriter } from './bot_paths'
import { BrandingSwitch } from './branding_switch'
import {
  FieldGroup,
  NumberField,
  SelectField,
  SwitchField,
  TextField,
  useValidators,
} from './editor_fields'
import { StartConditionEditor } from './start_condition_editor'
import { ChannelConnection } from './channel_connection'

/** The sections of the Settings tab. */

export function GeneralSettings() {
  const { t } = useTranslation()
  const write = useBotWriter('settings')
  const remember = useBotValue<boolean>('settings', ['general', 'rememberUser', 'isEnabled'])
  return (
    <FieldGroup title={t('editor.settings.general')}>
      <BrandingSwitch testId="settings-branding" />
      <SwitchField
        root="settings"
        path={['general', 'isTypingEmulationEnabled']}
        label={t('editor.settings.typingEmulationEnabled')}
        hint={t('botSettings.general.typingHint')}
        // The chat types only when both flags allow it: one switch keeps them together.
        onChange={(checked) =>
          write([
            [['general', 'isTypingEmulationEnabled'], checked],
            [['typingEmulation', 'enabled'], checked],
          ])
        }
      />
      <SwitchField
        root="settings"
        path={['general', 'isInputPrefillEnabled']}
        label={t('editor.settings.inputPrefill')}
        hint={t('editor.settings.inputPrefillHint')}
      />
      <SwitchField
        root="settings"
        path={['general', 'isHideQueryParamsEnabled']}
        label={t('editor.settings.hideQueryParams')}
        hint={t('editor.settings.hideQueryParamsHint')}
      />
      <SwitchField
        root="settings"
        path={['general', 'isNewResultOnRefreshEnabled']}
        label={t('editor.settings.newResultOnRefresh')}
        hint={t('botSettings.general.newResultHint')}
      />
      <SwitchField
        root="settings"
        path={['general', 'rememberUser', 'isEnabled']}
        label={t('botSettings.general.rememberUser')}
        hint={t('botSettings.general.rememberUserHint')}
      />
      {remember && (
        <SelectField
          root="settings"
          path={['general', 'rememberUser', 'storage']}
          label={t('botSettings.general.storage')}
          options={[
            { value: 'session', label: t('botSettings.general.storageSession') },
            { value: 'local', label: t('botSettings.general.storageLocal') },
          ]}
        />
      )}
    </FieldGroup>
  )
}

export function TypingSettings() {
  const { t } = useTranslation()
  const enabled = useBotValue<boolean>('settings', ['general', 'isTypingEmulationEnabled'])
  const off = enabled === false
  return (
    <FieldGroup
      title={t('editor.settings.typingEmulation')}
      description={off ? t('botSettings.typing.offHint') : t('botSettings.typing.hint')}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberField
          root="settings"
          path={['typingEmulation', 'speed']}
          label={t('editor.settings.speed')}
          {...SETTINGS_BOUNDS.typingSpeed}
          disabled={off}
        />
        <NumberField
          root="settings"
          path={['typingEmulation', 'maxDelay']}
          label={t('editor.settings.maxDelay')}
          {...SETTINGS_BOUNDS.typingMaxDelay}
          disabled={off}
        />
        <NumberField
          root="settings"
          path={['typingEmulation', 'delayBetweenBubbles']}
          label={t('editor.settings.delayBetweenBubbles')}
          {...SETTINGS_BOUNDS.delayBetweenBubbles}
          disabled={off}
        />
      </div>
      <SwitchField
        root="settings"
        path={['typingEmulation', 'isDisabledOnFirstMessage']}
        label={t('editor.settings.disabledOnFirstMessage')}
        disabled={off}
      />
    </FieldGroup>
  )
}

export function MetadataSettings() {
  const { t } = useTranslation()
  const validators = useValidators()
  return (
    <FieldGroup title={t('editor.settings.metadata')} description={t('botSettings.metadata.hint')}>
      <TextField
        root="settings"
        path={['metadata', 'title']}
        label={t('editor.settings.metaTitle')}
      />
      <TextField
        root="settings"
        path={['metadata', 'description']}
        label={t('editor.settings.metaDescription')}
        multiline
      />
      <TextField
        root="settings"
        path={['metadata', 'imageUrl']}
        label={t('editor.settings.metaImage')}
        placeholder="https://"
        type="url"
        validate={validators.url}
      />
      <TextField
        root="settings"
        path={['metadata', 'favIconUrl']}
        label={t('editor.settings.metaFavicon')}
        placeholder="https://"
        type="url"
        validate={validators.url}
      />
      <TextField
        root="settings"
        path={['metadata', 'googleTagManagerId']}
        label={t('botSettings.metadata.gtm')}
        placeholder="GTM-XXXXXXX"
        validate={(text) => (GTM_ID_PATTERN.test(text) ? undefined : t('botSettings.errors.gtm'))}
      />
      <TextField
        root="settings"
        path={['metadata', 'customHeadCode']}
        label={t('botSettings.metadata.headCode')}
        hint={t('botSettings.metadata.headCodeHint')}
        placeholder='<meta name="robots" content="noindex">'
        multiline
        monospace
      />
    </FieldGroup>
  )
}

function SessionExpiryField({ channel }: { channel: 'whatsApp' | 'telegram' }) {
  const { t } = useTranslation()
  return (
    <NumberField
      root="settings"
      path={[channel, 'sessionExpiryTimeout']}
      label={t('botSettings.channels.sessionExpiry')}
      hint={t('botSettings.channels.sessionExpiryHint')}
      {...SETTINGS_BOUNDS.sessionExpiryTimeout}
      unit={t('botSettings.channels.hours')}
    />
  )
}

export function WhatsAppSettings() {
  const { t } = useTranslation()
  return (
    <FieldGroup
      title={t('botSettings.menu.whatsApp')}
      description={t('botSettings.channels.whatsAppHint')}
    >
      <SwitchField
        root="settings"
        path={['whatsApp', 'isEnabled']}
        label={t('botSettings.channels.enabled')}
        hint={t('botSettings.channels.enabledHint')}
      />
      <ChannelConnection channel="whatsapp" />
      <StartConditionEditor
        path={['whatsApp', 'startCondition']}
        testId="settings-whatsapp-condition"
      />
      <SessionExpiryField channel="whatsApp" />
    </FieldGroup>
  )
}

export function TelegramSettings() {
  const { t } = useTranslation()
  return (
    <FieldGroup
      title={t('botSettings.menu.telegram')}
      description={t('botSettings.channels.telegramHint')}
    >
      <SwitchField
        root="settings"
        path={['telegram', 'isEnabled']}
        label={t('botSettings.channels.enabled')}
        hint={t('botSettings.channels.enabledHint')}
      />
      <ChannelConnection channel="telegram" />
      <StartConditionEditor
        path={['telegram', 'startCondition']}
        testId="settings-telegram-condition"
      />
      <SessionExpiryField channel="telegram" />
    </FieldGroup>
  )
}

export function SecuritySettings() {
  const { t } = useTranslation()
  return (
    <FieldGroup title={t('botSettings.menu.security')}>
      <AllowedOriginsField />
    </FieldGroup>
  )
}
