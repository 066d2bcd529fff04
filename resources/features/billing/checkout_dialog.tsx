import { useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { LoaderCircleIcon } from 'lucide-react'
import {
  TAX_ID_TYPES,
  type BillingPeriod,
  type PaidPlanName,
  type TaxIdType,
} from '#shared/billing'
import { usePageProps } from '~/hooks/use_shared_props'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'

const NO_TAX_ID = 'none'

/**
 * The pre-checkout modal: the company, the billing e-mail and
 * an optional tax id with its type go to the Stripe customer, then the browser leaves for
 * Stripe Checkout (the server answers with an Inertia location visit).
 */
export function CheckoutDialog({
  plan,
  planLabel,
  period,
  onClose,
}: {
  plan: PaidPlanName | null
  planLabel: string
  period: BillingPeriod
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { user, currentWorkspace } = usePageProps()
  const form = useForm<{
    plan: PaidPlanName | ''
    period: BillingPeriod
    company: string
    email: string
    taxIdType: TaxIdType | ''
    taxId: string
  }>({
    plan: plan ?? '',
    period,
    company: currentWorkspace?.name ?? '',
    email: user?.email ?? '',
    taxIdType: '',
    taxId: '',
  })

  const submit = (event: React.FormEvent) => {
    event.preventDefault()
    form.transform((data) => ({
      ...data,
      plan: plan ?? data.plan,
      period,
      taxIdType: data.taxIdType || undefined,
      taxId: data.taxId.trim() || undefined,
    }))
    form.post('/billing/checkout', { preserveScroll: true })
  }

  const errors = form.errors as Partial<Record<string, string>>
  return (
    <Dialog open={!!plan} onOpenChange={(open) => !open && !form.processing && onClose()}>
      <DialogContent className="sm:max-w-md" data-testid="checkout-dialog">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('stripeBilling.checkout.title', { plan: planLabel })}</DialogTitle>
            <DialogDescription>
              {t(
                period === 'year'
                  ? 'stripeBilling.checkout.descriptionYearly'
                  : 'stripeBilling.checkout.descriptionMonthly'
              )}
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="checkout-company">{t('stripeBilling.checkout.company')}</Label>
            <Input
              id="checkout-company"
              autoComplete="organization"
              value={form.data.company}
              onChange={(e) => form.setData('company', e.target.value)}
              aria-invalid={!!errors.company}
              aria-describedby={errors.company ? 'checkout-company-error' : undefined}
              required
            />
            <FieldError id="checkout-company-error">{errors.company}</FieldError>
          </div>
          <div className="grid gap-2">
            <Label htmlFor="checkout-email">{t('stripeBilling.checkout.email')}</Label>
            <Input
              id="checkout-email"
              type="email"
              autoComplete="email"
              value={form.data.email}
              onChange={(e) => form.setData('email', e.target.value)}
              aria-invalid={!!errors.email}
              aria-describedby={errors.email ? 'checkout-email-error' : undefined}
              required
            />
            <FieldError id="checkout-email-error">{errors.email}</FieldError>
          </div>
          <div className="grid gap-2 sm:grid-cols-[10rem_1fr] sm:gap-3">
            <div className="grid gap-2">
              <Label htmlFor="checkout-tax-type">{t('stripeBilling.checkout.taxIdType')}</Label>
              <Select
                value={form.data.taxIdType || NO_TAX_ID}
                onValueChange={(value) =>
                  form.setData('taxIdType', value === NO_TAX_ID ? '' : (value as TaxIdType))
                }
              >
                <SelectTrigger id="checkout-tax-type" aria-invalid={!!errors.taxIdType}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={NO_TAX_ID}>{t('stripeBilling.checkout.noTaxId')}</SelectItem>
                  {TAX_ID_TYPES.map((type) => (
                    <SelectItem key={type.type} value={type.type}>
                      {type.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="checkout-tax-id">{t('stripeBilling.checkout.taxId')}</Label>
              <Input
                id="checkout-tax-id"
                value={form.data.taxId}
                onChange={(e) => form.setData('taxId', e.target.value)}
                disabled={!form.data.taxIdType}
                aria-invalid={!!errors.taxId}
                aria-describedby={errors.taxId ? 'checkout-tax-error' : undefined}
              />
            </div>
            <FieldError id="checkout-tax-error" className="sm:col-span-2">
              {errors.taxId ?? errors.taxIdType}
            </FieldError>
          </div>
          <FieldError>{errors.plan ?? errors.period}</FieldError>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose} disabled={form.processing}>
              {t('stripeBilling.checkout.cancel')}
            </Button>
            <Button type="submit" disabled={form.processing} data-testid="checkout-submit">
              {form.processing && <LoaderCircleIcon aria-hidden className="size-4 animate-spin" />}
              {t('stripeBilling.checkout.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
