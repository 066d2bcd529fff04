import { Head, Link, useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { BareLayout } from '~/components/bare_layout'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, Label } from '~/components/ui/label'
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '~/components/ui/card'
import { OauthButtons } from '~/features/auth/oauth_buttons'
import { DevMailboxNote } from '~/features/auth/dev_mailbox_note'
import { usePageProps } from '~/hooks/use_shared_props'

interface Props {
  mode: 'signin' | 'register'
  redirectPath: string | null
  email: string | null
  signupDisabled: boolean
}

function withQuery(path: string, redirectPath: string | null) {
  return redirectPath ? `${path}?redirectPath=${encodeURIComponent(redirectPath)}` : path
}

export default function SignIn({ mode, redirectPath, email, signupDisabled }: Props) {
  const { t } = useTranslation()
  const { errors } = usePageProps()
  const register = mode === 'register'
  const form = useForm({ email: email ?? '', name: '' })
  const emailError = form.errors.email ?? errors?.email

  function submit(event: React.FormEvent) {
    event.preventDefault()
    form.transform((data) => ({
      email: data.email.trim(),
      ...(register && data.name.trim() ? { name: data.name.trim() } : {}),
      ...(redirectPath ? { redirectPath } : {}),
    }))
    form.post(register ? '/register' : '/signin')
  }

  const title = register ? t('auth.register.title') : t('auth.signin.title')

  return (
    <BareLayout>
      <Head title={title} />
      <Card className="w-full max-w-sm">
        <CardHeader className="text-center">
          <CardTitle className="text-xl">
            <h1>{title}</h1>
          </CardTitle>
          <CardDescription>
            {register ? t('auth.register.description') : t('auth.signin.description')}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {register && signupDisabled ? (
            <p
              role="status"
              data-testid="signup-disabled"
              className="rounded-md border bg-muted/50 p-3 text-sm"
            >
              {t('auth.register.disabled')}
            </p>
          ) : (
            <>
              <OauthButtons />
              <form onSubmit={submit} className="grid gap-4" noValidate>
                {register && (
                  <div className="grid gap-2">
                    <Label htmlFor="signin-name">{t('auth.nameLabel')}</Label>
                    <Input
                      id="signin-name"
                      data-testid="signin-name"
                      autoComplete="name"
                      value={form.data.name}
                      onChange={(e) => form.setData('name', e.target.value)}
                      placeholder={t('auth.namePlaceholder')}
                      aria-invalid={!!form.errors.name}
                    />
                    <FieldError>{form.errors.name}</FieldError>
                  </div>
                )}
                <div className="grid gap-2">
                  <Label htmlFor="signin-email">{t('auth.emailLabel')}</Label>
                  <Input
                    id="signin-email"
                    data-testid="signin-email"
                    type="email"
                    autoComplete="email"
                    required
                    autoFocus
                    value={form.data.email}
                    onChange={(e) => form.setData('email', e.target.value)}
                    placeholder={t('auth.emailPlaceholder')}
                    aria-invalid={!!emailError}
                    aria-describedby={emailError ? 'signin-email-error' : undefined}
                  />
                  <FieldError id="signin-email-error">{emailError}</FieldError>
                </div>
                <Button
                  type="submit"
                  data-testid="signin-submit"
                  className="w-full"
                  disabled={form.processing}
                >
                  {form.processing ? t('auth.sending') : t('auth.sendLink')}
                </Button>
              </form>
            </>
          )}
          <DevMailboxNote />
        </CardContent>
        <CardFooter className="flex-col gap-2 text-sm text-muted-foreground">
          {register ? (
            <p>
              {t('auth.register.haveAccount')}{' '}
              <Link
                href={withQuery('/signin', redirectPath)}
                className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline outline-none"
                data-testid="link-signin"
              >
                {t('auth.signin.link')}
              </Link>
            </p>
          ) : (
            <p>
              {t('auth.signin.noAccount')}{' '}
              <Link
                href={withQuery('/register', redirectPath)}
                className="font-medium text-primary underline-offset-4 hover:underline focus-visible:underline outline-none"
                data-testid="link-register"
              >
                {t('auth.register.link')}
              </Link>
            </p>
          )}
        </CardFooter>
      </Card>
    </BareLayout>
  )
}
