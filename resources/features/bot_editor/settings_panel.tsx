import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  KeyboardIcon,
  MessageCircleIcon,
  SendIcon,
  ShieldIcon,
  SlidersHorizontalIcon,
  TagIcon,
} from 'lucide-react'
import { SideMenuLayout, type SideMenuEntry } from './side_menu_layout'
import {
  GeneralSettings,
  MetadataSettings,
  SecuritySettings,
  TelegramSettings,
  TypingSettings,
  WhatsAppSettings,
} from './settings_sections'

type SettingsSection = 'general' | 'typing' | 'metadata' | 'whatsapp' | 'telegram' | 'security'

/** The Settings tab: general, typing emulation, metadata, channels, security. */
export function SettingsPanel() {
  const { t } = useTranslation()
  const [section, setSection] = useState<SettingsSection>('general')
  const entries: SideMenuEntry<SettingsSection>[] = [
    { id: 'general', label: t('editor.settings.general'), icon: SlidersHorizontalIcon },
    { id: 'typing', label: t('editor.settings.typingEmulation'), icon: KeyboardIcon },
    { id: 'metadata', label: t('editor.settings.metadata'), icon: TagIcon },
    { id: 'whatsapp', label: t('botSettings.menu.whatsApp'), icon: MessageCircleIcon },
    { id: 'telegram', label: t('botSettings.menu.telegram'), icon: SendIcon },
    { id: 'security', label: t('botSettings.menu.security'), icon: ShieldIcon },
  ]
  return (
    <SideMenuLayout
      label={t('botSettings.menu.label')}
      entries={entries}
      current={section}
      onSelect={setSection}
      testId="settings-panel"
    >
      {section === 'general' && <GeneralSettings />}
      {section === 'typing' && <TypingSettings />}
      {section === 'metadata' && <MetadataSettings />}
      {section === 'whatsapp' && <WhatsAppSettings />}
      {section === 'telegram' && <TelegramSettings />}
      {section === 'security' && <SecuritySettings />}
    </SideMenuLayout>
  )
}
