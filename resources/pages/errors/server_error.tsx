import { Head } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BareLayout } from '~/components/bare_layout'
import { Button, buttonVariants } from '~/components/ui/button'

export default function ServerError() {
  const { t } = useTranslation()
  return (
    <BareLayout>
      <Head title={t('errors.serverError.title')} />
      <div className="grid max-w-md gap-4 text-center">
        <p className="text-5xl font-bold text-destructive">500</p>
        <h1 className="text-2xl font-semibold">{t('errors.serverError.title')}</h1>
        <p className="text-muted-foreground">{t('errors.serverError.description')}</p>
        <div className="flex justify-center gap-2">
          <Button variant="outline" onClick={() => window.location.reload()}>
            {t('errors.retry')}
          </Button>
          <a href="/bots" className={buttonVariants()}>
            {t('errors.backToApp')}
          </a>
        </div>
      </div>
    </BareLayout>
  )
}
