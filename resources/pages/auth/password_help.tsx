import { Head, Link } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { KeyRoundIcon } from 'lucide-react'
import { BareLayout } from '~/components/bare_layout'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { buttonVariants } from '~/components/ui/button'

export default function PasswordHelp({ page }: { page: 'forgot' | 'reset' }) {
  const { t } = useTranslation()
  const title =
    page === 'reset' ? t('auth.passwordHelp.resetTitle') : t('auth.passwordHelp.forgotTitle')
  return (
    <BareLayout>
      <Head title={title} />
      <Card className="w-full max-w-sm text-center">
        <CardHeader className="justify-items-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <KeyRoundIcon aria-hidden className="size-6" />
          </span>
          <CardTitle className="text-xl">
            <h1>{title}</h1>
          </CardTitle>
          <CardDescription>{t('auth.passwordHelp.noPasswords')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="text-sm text-muted-foreground">{t('auth.passwordHelp.howTo')}</p>
          <Link href="/signin" className={buttonVariants()} data-testid="password-help-signin">
            {t('auth.passwordHelp.toSignin')}
          </Link>
        </CardContent>
      </Card>
    </BareLayout>
  )
}
