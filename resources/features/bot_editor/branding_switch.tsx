import { Link, usePage } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { SwitchField } from './editor_fields'

/**
 * The "Made with Flowcraft" badge (settings.general.isBrandingEnabled). Only plans with
 * brand removal may turn it off: on other plans it shows on, locked, with an upgrade link.
 * Shared by the Theme tab (brand display) and the Settings tab (General).
 */
export function BrandingSwitch({ testId }: { testId: string }) {
  const { t } = useTranslation()
  const canRemove = usePage<{ canRemoveBranding?: boolean }>().props.canRemoveBranding === true
  return (
    <SwitchField
      root="settings"
      path={['general', 'isBrandingEnabled']}
      testId={testId}
      label={t('botSettings.general.branding')}
      disabled={!canRemove}
      checked={canRemove ? undefined : true}
      hint={
        canRemove ? (
          t('botSettings.general.brandingHint')
        ) : (
          <>
            {t('botSettings.general.brandingLocked')}{' '}
            <Link
              href="/bots/plans"
              data-testid={`${testId}-upgrade`}
              className="font-medium text-foreground underline underline-offset-4"
            >
              {t('botSettings.general.upgrade')}
            </Link>
          </>
        )
      }
    />
  )
}
