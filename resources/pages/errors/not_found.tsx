import { Head, Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BareLayout } from '~/components/bare_layout'
import { buttonVariants } from '~/components/ui/button'
import { usePageProps } from '~/hooks/use_shared_props'

export default function NotFound({ error }: { error?: string }) {
  const { t } = useTranslation()
  const { user } = usePageProps()
  return (
    <BareLayout>
      <Head title={t('errors.notFound.title')} />
      <div className="grid max-w-md gap-4 text-center">
        <p className="text-5xl font-bold text-primary">404</p>
        <h1 className="text-2xl font-semibold">{t('errors.notFound.title')}</h1>
        <p className="text-muted-foreground">{t('errors.notFound.description')}</p>
        {error && error !== 'Not found' && <p className="text-sm text-muted-foreground">{error}</p>}
        <Link
          href={user ? '/bots' : '/signin'}
          className={buttonVariants({ className: 'justify-self-center' })}
        >
          {user ? t('errors.backToApp') : t('errors.toSignin')}
        </Link>
      </div>
    </BareLayout>
  )
}
