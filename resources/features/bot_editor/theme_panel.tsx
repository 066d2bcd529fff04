import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { BookmarkIcon, GlobeIcon, LayoutTemplateIcon, MessageSquareIcon } from 'lucide-react'
import { SideMenuLayout, type SideMenuEntry } from './side_menu_layout'
import { ThemeChatSection } from './theme_chat_section'
import { ThemeGallery } from './theme_gallery'
import { ThemeGlobalSection } from './theme_global_section'
import { ThemeMyTemplates } from './theme_my_templates'
import { ThemePreview } from './theme_preview'

type ThemeSection = 'global' | 'chat' | 'templates' | 'my-templates'

/** The Theme tab: side menu, the section's fields, a live preview. */
export function ThemePanel() {
  const { t } = useTranslation()
  const [section, setSection] = useState<ThemeSection>('global')
  const entries: SideMenuEntry<ThemeSection>[] = [
    { id: 'global', label: t('theme.menu.global'), icon: GlobeIcon },
    { id: 'chat', label: t('theme.menu.chat'), icon: MessageSquareIcon },
    { id: 'templates', label: t('theme.menu.templates'), icon: LayoutTemplateIcon },
    { id: 'my-templates', label: t('theme.menu.myTemplates'), icon: BookmarkIcon },
  ]
  return (
    <SideMenuLayout
      label={t('theme.menu.label')}
      entries={entries}
      current={section}
      onSelect={setSection}
      testId="theme-panel"
      aside={<ThemePreview />}
    >
      {section === 'global' && <ThemeGlobalSection />}
      {section === 'chat' && <ThemeChatSection />}
      {section === 'templates' && <ThemeGallery />}
      {section === 'my-templates' && <ThemeMyTemplates />}
    </SideMenuLayout>
  )
}
