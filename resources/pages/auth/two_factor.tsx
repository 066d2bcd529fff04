import { useState } from 'react'
import { Head, router, useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { ShieldCheckIcon } from 'lucide-react'
import { BareLayout } from '~/components/bare_layout'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { usePageProps } from '~/hooks/use_shared_props'
import { clearTwoFactor } from '~/features/auth/clear_two_factor'

/**
 * "Enter your code": between the magic link (or OAuth) and the app, for people with
 * two-factor sign-in on. A code from the authenticator app, or one of the recovery codes.
 */
export default function TwoFactor({ email }: { email: string }) {
  const { t } = useTranslation()
  const { errors } = usePageProps()
  const [recovery, setRecovery] = useState(false)
  const [leaving, setLeaving] = useState(false)
  const form = useForm({ code: '' })
  const error = form.errors.code ?? errors?.code

  function submit(event: React.FormEvent) {
    event.preventDefault()
    form.transform((data) => ({ code: data.code.trim() }))
    form.post('/signin/two-factor', { onError: () => form.setData('code', '') })
  }

  async function useAnotherAccount() {
    setLeaving(true)
    await clearTwoFactor()
    router.visit('/signin')
  }

  return (
    <BareLayout>
      <Head title={t('twoFactor.challenge.title')} />
      <Card className="w-full max-w-sm">
        <CardHeader className="justify-items-center text-center">
          <span className="mb-2 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
            <ShieldCheckIcon aria-hidden className="size-6" />
          </span>
          <CardTitle className="text-xl">
            <h1>{t('twoFactor.challenge.title')}</h1>
          </CardTitle>
          <CardDescription
            data-testid="two-factor-description"
            className="[overflow-wrap:anywhere]"
          >
            {recovery
              ? t('twoFactor.challenge.recoveryDescription', { email })
              : t('twoFactor.challenge.description', { email })}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <form onSubmit={submit} className="grid gap-4" noValidate>
            <div className="grid gap-2">
              <Label htmlFor="two-factor-code">
                {recovery ? t('twoFactor.challenge.recoveryLabel') : t('twoFactor.challenge.label')}
              </Label>
              <Input
                key={recovery ? 'recovery' : 'totp'}
                id="two-factor-code"
                data-testid="two-factor-code"
                value={form.data.code}
                onChange={(e) => form.setData('code', e.target.value)}
                autoFocus
                required
                autoComplete="one-time-code"
                inputMode={recovery ? 'text' : 'numeric'}
                pattern={recovery ? undefined : '[0-9]*'}
                maxLength={recovery ? 20 : 6}
                placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
                className="text-center font-mono text-lg tracking-widest"
                aria-invalid={!!error}
                aria-describedby={error ? 'two-factor-error' : 'two-factor-hint'}
              />
              {error ? (
                <FieldError id="two-factor-error">{error}</FieldError>
              ) : (
                <FieldHint id="two-factor-hint">
                  {recovery ? t('twoFactor.challenge.recoveryHint') : t('twoFactor.challenge.hint')}
                </FieldHint>
              )}
            </div>
            <Button
              type="submit"
              className="w-full"
              data-testid="two-factor-submit"
              disabled={form.processing || !form.data.code.trim()}
            >
              {form.processing
                ? t('twoFactor.challenge.checking')
                : t('twoFactor.challenge.submit')}
            </Button>
          </form>
          <div className="flex flex-col items-center gap-1 text-sm">
            <Button
              variant="link"
              size="sm"
              data-testid="two-factor-toggle"
              onClick={() => {
                setRecovery((value) => !value)
                form.setData('code', '')
                form.clearErrors()
              }}
            >
              {recovery ? t('twoFactor.challenge.useApp') : t('twoFactor.challenge.useRecovery')}
            </Button>
            <Button
              variant="link"
              size="sm"
              className="text-muted-foreground"
              data-testid="two-factor-other-account"
              disabled={leaving}
              onClick={() => void useAnotherAccount()}
            >
              {t('twoFactor.challenge.otherAccount')}
            </Button>
          </div>
        </CardContent>
      </Card>
    </BareLayout>
  )
}
