import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MonitorIcon, MoonIcon, MousePointer2Icon, SunIcon, TouchpadIcon } from 'lucide-react'
import {
  APPEARANCES,
  GRAPH_NAVIGATIONS,
  LANGUAGES,
  type Appearance,
  type GraphNavigation,
} from '#shared/workspace_roles'
import { usePageProps } from '~/hooks/use_shared_props'
import { useColorMode } from '~/hooks/use_color_mode'
import { changeLanguage, isLanguage, LANGUAGE_LABELS } from '~/lib/i18n'
import { RadioGroup, RadioGroupItem } from '~/components/ui/radio_group'
import { Label } from '~/components/ui/label'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { useUpdateUser } from './use_update_user'
import { SettingsSection } from './settings_section'

const APPEARANCE_ICONS = { system: MonitorIcon, light: SunIcon, dark: MoonIcon } as const
const NAVIGATION_ICONS = { mouse: MousePointer2Icon, trackpad: TouchpadIcon } as const

function OptionCard({
  value,
  id,
  label,
  description,
  icon: Icon,
  testId,
}: {
  value: string
  id: string
  label: string
  description?: string
  icon: React.ComponentType<{ 'className'?: string; 'aria-hidden'?: boolean }>
  testId: string
}) {
  return (
    <Label
      htmlFor={id}
      className="flex cursor-pointer items-start gap-3 rounded-md border p-3 font-normal has-[[data-state=checked]]:border-primary has-[[data-state=checked]]:bg-primary/5"
    >
      <RadioGroupItem value={value} id={id} data-testid={testId} className="mt-0.5" />
      <Icon aria-hidden className="mt-0.5 size-4 text-muted-foreground" />
      <span className="grid gap-1">
        <span className="font-medium">{label}</span>
        {description && <span className="text-xs text-muted-foreground">{description}</span>}
      </span>
    </Label>
  )
}

export function PreferencesTab() {
  const { t, i18n } = useTranslation()
  const { user } = usePageProps()
  const { mode, setMode } = useColorMode()
  const [navigation, setNavigation] = useState<GraphNavigation>(user?.graphNavigation ?? 'mouse')
  const [language, setLanguage] = useState<string>(
    isLanguage(i18n.language) ? i18n.language : (user?.preferredLanguage ?? 'en')
  )
  const updateUser = useUpdateUser(user?.id)

  return (
    <div className="grid gap-6">
      <SettingsSection
        title={t('settings.preferences.appearanceTitle')}
        description={t('settings.preferences.appearanceDescription')}
      >
        <RadioGroup
          value={mode}
          onValueChange={(value) => {
            const next = value as Appearance
            setMode(next)
            updateUser({ preferredAppAppearance: next })
          }}
          className="grid gap-2 sm:grid-cols-3"
          aria-label={t('settings.preferences.appearanceTitle')}
        >
          {APPEARANCES.map((value) => (
            <OptionCard
              key={value}
              value={value}
              id={`appearance-${value}`}
              testId={`appearance-${value}`}
              label={t(`settings.preferences.appearance.${value}`)}
              icon={APPEARANCE_ICONS[value]}
            />
          ))}
        </RadioGroup>
      </SettingsSection>

      <SettingsSection
        title={t('settings.preferences.navigationTitle')}
        description={t('settings.preferences.navigationDescription')}
      >
        <RadioGroup
          value={navigation}
          onValueChange={(value) => {
            const next = value as GraphNavigation
            setNavigation(next)
            updateUser({ graphNavigation: next })
          }}
          className="grid gap-2 sm:grid-cols-2"
          aria-label={t('settings.preferences.navigationTitle')}
        >
          {GRAPH_NAVIGATIONS.map((value) => (
            <OptionCard
              key={value}
              value={value}
              id={`navigation-${value}`}
              testId={`navigation-${value}`}
              label={t(`settings.preferences.navigation.${value}`)}
              description={t(`settings.preferences.navigation.${value}Description`)}
              icon={NAVIGATION_ICONS[value]}
            />
          ))}
        </RadioGroup>
      </SettingsSection>

      <SettingsSection
        title={t('settings.preferences.languageTitle')}
        description={t('settings.preferences.languageDescription')}
      >
        <div className="grid gap-2">
          <Label htmlFor="language-select" className="sr-only">
            {t('settings.preferences.languageTitle')}
          </Label>
          <Select
            value={language}
            onValueChange={(value) => {
              if (!isLanguage(value)) return
              setLanguage(value)
              void changeLanguage(value)
              updateUser({ preferredLanguage: value })
            }}
          >
            <SelectTrigger id="language-select" data-testid="language-select" className="w-64">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {LANGUAGES.map((lang) => (
                <SelectItem
                  key={lang}
                  value={lang}
                  lang={lang}
                  data-testid={`language-option-${lang}`}
                >
                  {LANGUAGE_LABELS[lang]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </SettingsSection>
    </div>
  )
}
