import { Head, Link } from '@inertiajs/react'
import { useTranslation, Trans } from 'react-i18next'
import { MailCheckIcon } from 'lucide-react'
import { BareLayout } from '~/components/bare_layout'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { buttonVariants } from '~/components/ui/button'
import { DevMailboxNote } from '~/features/auth/dev_mailbox_note'

export default function CheckEmail({ email }: { email: string }) {
  const { t } = useTranslation()
  return (
    <BareLayout>
      <Head title={t('auth.checkEmail.title')} />
      <Card className="w-full max-w-sm text-center">
        <CardHeader className="justify-items-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <MailCheckIcon aria-hidden className="size-6" />
          </span>
          <CardTitle className="text-xl">
            <h1>{t('auth.checkEmail.title')}</h1>
          </CardTitle>
          <CardDescription>
            {email ? (
              <Trans
                i18nKey="auth.checkEmail.sentTo"
                values={{ email }}
                components={{
                  strong: (
                    <strong
                      className="font-medium text-foreground"
                      data-testid="check-email-address"
                    />
                  ),
                }}
              />
            ) : (
              t('auth.checkEmail.sentGeneric')
            )}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <p className="text-sm text-muted-foreground">{t('auth.checkEmail.hint')}</p>
          <DevMailboxNote email={email || null} />
          <Link href="/signin" className={buttonVariants({ variant: 'outline' })}>
            {t('auth.checkEmail.back')}
          </Link>
        </CardContent>
      </Card>
    </BareLayout>
  )
}
