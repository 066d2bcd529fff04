import { useTranslation } from 'react-i18next'

/** Shown while the workspace's plan keeps the branding on. */
export function BrandingLink() {
  const { t } = useTranslation()
  return (
    <div className="flex justify-center px-3 pt-1 pb-3">
      <a
        href="/"
        target="_blank"
        rel="noopener"
        data-testid="viewer-branding"
        className="fc-branding rounded-md bg-white/90 px-2.5 py-1 text-xs font-medium text-gray-700 shadow-sm hover:text-gray-900"
      >
        {t('viewer.madeWith', { brand: 'Flowcraft' })}
      </a>
    </div>
  )
}
