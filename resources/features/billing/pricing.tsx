import { useEffect, useState } from 'react'
import { Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CheckIcon, LeafIcon, LoaderCircleIcon, SparklesIcon } from 'lucide-react'
import {
  CARBON_REMOVAL_PERCENT,
  PRICING_CARDS,
  type BillingPeriod,
  type BillingTabDto,
  type PaidPlanName,
  type PriceDto,
  type PricingCardDto,
} from '#shared/billing'
import type { PlanDefinition } from '#shared/plans'
import { usePageProps } from '~/hooks/use_shared_props'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { cn } from '~/lib/utils'
import { formatNumber, formatPrice } from '~/lib/format'
import { useLimitText } from '~/features/plans/plan_values'
import { CheckoutDialog } from './checkout_dialog'
import { openBillingPortal } from './subscription'

export function priceText(price: PriceDto | null) {
  if (!price || price.amount === null) return null
  return formatPrice(price.amount, price.currency.toUpperCase())
}

/**
 * The pricing cards: Starter and Pro (marked most popular),
 * Enterprise where priced, monthly or yearly, each opening the pre-checkout modal.
 */
export function PricingCards({
  cards,
  billing,
}: {
  cards: PricingCardDto[]
  billing: BillingTabDto | null
}) {
  const { t } = useTranslation()
  const { currentWorkspace } = usePageProps()
  const hasYearly = cards.some((card) => card.yearly)
  const [period, setPeriod] = useState<BillingPeriod>('month')
  const [chosen, setChosen] = useState<PricingCardDto | null>(null)
  const subscribed = !!billing?.subscription
  const canManage = !!billing?.canManage

  return (
    <section className="grid gap-4" aria-labelledby="pricing-title" data-testid="pricing">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="pricing-title" className="text-lg font-semibold">
          {t('stripeBilling.pricing.title')}
        </h2>
        {hasYearly && (
          <div
            role="radiogroup"
            aria-label={t('stripeBilling.pricing.period')}
            className="inline-flex rounded-md border p-0.5"
          >
            {(['month', 'year'] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={period === value}
                data-testid={`period-${value}`}
                onClick={() => setPeriod(value)}
                className={cn(
                  'rounded px-3 py-1 text-sm font-medium focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
                  period === value ? 'bg-primary text-primary-foreground' : 'text-muted-foreground'
                )}
              >
                {t(
                  value === 'month'
                    ? 'stripeBilling.pricing.monthly'
                    : 'stripeBilling.pricing.yearly'
                )}
              </button>
            ))}
          </div>
        )}
      </div>
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        {cards.map((card) => {
          const key = PRICING_CARDS[card.plan].key
          const price = period === 'year' ? card.yearly : card.monthly
          const current = billing?.subscription?.plan === card.plan
          return (
            <article
              key={card.plan}
              data-testid={`pricing-${card.plan}`}
              className={cn(
                'relative grid content-start gap-3 rounded-lg border p-5',
                card.mostPopular && 'border-primary shadow-sm'
              )}
            >
              <div className="flex flex-wrap items-center gap-2">
                <h3 className="text-base font-semibold">{t(`stripeBilling.cards.${key}.name`)}</h3>
                {card.mostPopular && (
                  <Badge data-testid="most-popular">
                    <SparklesIcon aria-hidden className="size-3" />
                    {t('stripeBilling.pricing.mostPopular')}
                  </Badge>
                )}
                {current && <Badge variant="success">{t('plans.current')}</Badge>}
              </div>
              <p className="text-sm text-muted-foreground">
                {t(`stripeBilling.cards.${key}.tagline`)}
              </p>
              <p className="min-h-8">
                {price ? (
                  <>
                    <span className="text-2xl font-semibold" data-testid="card-price">
                      {priceText(price) ?? '—'}
                    </span>{' '}
                    <span className="text-sm text-muted-foreground">
                      {t(period === 'year' ? 'stripeBilling.pricing.perYear' : 'plans.perMonth')}
                    </span>
                  </>
                ) : (
                  <span className="text-sm text-muted-foreground">
                    {t('stripeBilling.pricing.notSoldForPeriod')}
                  </span>
                )}
              </p>
              <ul className="grid gap-1.5 text-sm">
                {[
                  t('stripeBilling.pricing.seats', { count: card.seats }),
                  card.conversations < 0
                    ? t('stripeBilling.pricing.unlimitedChats')
                    : t('stripeBilling.pricing.chats', {
                        count: card.conversations,
                        formatted: formatNumber(card.conversations),
                      }),
                  t(`stripeBilling.cards.${key}.features`),
                ].map((line) => (
                  <li key={line} className="flex gap-2">
                    <CheckIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
                    <span>{line}</span>
                  </li>
                ))}
              </ul>
              {subscribed ? (
                <Button
                  variant="outline"
                  disabled={!canManage || current}
                  onClick={() => openBillingPortal()}
                >
                  {current ? t('plans.current') : t('stripeBilling.pricing.changeInPortal')}
                </Button>
              ) : (
                <Button
                  data-testid={`upgrade-${card.plan}`}
                  variant={card.mostPopular ? 'default' : 'outline'}
                  disabled={!canManage || !price || currentWorkspace?.isPastDue}
                  onClick={() => setChosen(card)}
                >
                  {t('stripeBilling.pricing.upgrade', {
                    plan: t(`stripeBilling.cards.${key}.name`),
                  })}
                </Button>
              )}
            </article>
          )
        })}
      </div>
      {!canManage && (
        <p className="text-sm text-muted-foreground" data-testid="billing-admins-only">
          {t('stripeBilling.pricing.adminsOnly')}
        </p>
      )}
      <p
        className="flex items-center gap-2 text-sm text-muted-foreground"
        data-testid="carbon-removal"
      >
        <LeafIcon aria-hidden className="size-4 text-success" />
        {t('stripeBilling.pricing.carbon', { percent: CARBON_REMOVAL_PERCENT })}
      </p>
      {chosen && (
        <CheckoutDialog
          plan={chosen.plan as PaidPlanName}
          planLabel={t(`stripeBilling.cards.${PRICING_CARDS[chosen.plan].key}.name`)}
          period={period}
          onClose={() => setChosen(null)}
        />
      )}
    </section>
  )
}

/** The chat price tiers: how many chats a month each plan includes, and its price. */
export function ChatTiersTable({
  plans,
  cards,
}: {
  plans: PlanDefinition[]
  cards: PricingCardDto[]
}) {
  const { t } = useTranslation()
  const limitText = useLimitText()
  const tiers = plans
    .filter((plan) => plan.name === 'FREE' || cards.some((card) => card.plan === plan.name))
    .sort((a, b) => tierSize(a) - tierSize(b))
  return (
    <section className="grid gap-2" aria-labelledby="chat-tiers-title">
      <h2 id="chat-tiers-title" className="text-lg font-semibold">
        {t('stripeBilling.tiers.title')}
      </h2>
      <p className="text-sm text-muted-foreground">{t('stripeBilling.tiers.description')}</p>
      <div className="relative overflow-x-auto rounded-lg border">
        <table className="w-full min-w-[420px] text-sm" data-testid="chat-tiers">
          <thead>
            <tr className="border-b bg-muted/40 text-left">
              <th scope="col" className="px-4 py-2 font-medium">
                {t('stripeBilling.tiers.chats')}
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                {t('plans.plan')}
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                {t('stripeBilling.pricing.monthly')}
              </th>
              <th scope="col" className="px-4 py-2 font-medium">
                {t('stripeBilling.pricing.yearly')}
              </th>
            </tr>
          </thead>
          <tbody>
            {tiers.map((plan) => {
              const card = cards.find((c) => c.plan === plan.name)
              return (
                <tr key={plan.name} className="border-b last:border-b-0">
                  <th scope="row" className="px-4 py-2 text-left font-normal tabular-nums">
                    {limitText(plan.limits.conversations)}
                  </th>
                  <td className="px-4 py-2">
                    {card
                      ? t(`stripeBilling.cards.${PRICING_CARDS[card.plan].key}.name`)
                      : plan.label}
                  </td>
                  <td className="px-4 py-2 tabular-nums">
                    {card ? (priceText(card.monthly) ?? '—') : formatPrice(0)}
                  </td>
                  <td className="px-4 py-2 tabular-nums">
                    {card ? (priceText(card.yearly) ?? '—') : formatPrice(0)}
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </section>
  )
}

function tierSize(plan: PlanDefinition) {
  return plan.limits.conversations < 0 ? Number.MAX_SAFE_INTEGER : plan.limits.conversations
}

const RETURN_POLLS = 15

/**
 * Back from Stripe Checkout (`?stripe=<PLAN>` or `?stripe=cancel`): the plan changes when
 * Stripe's webhook arrives, which may be a moment after the return, so the page reloads its
 * props every two seconds until the workspace shows the plan (or it gives up and says so).
 */
export function StripeReturnNotice({ billing }: { billing: BillingTabDto | null }) {
  const { t } = useTranslation()
  const [value] = useState(() =>
    typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('stripe')
  )
  const [polls, setPolls] = useState(0)
  const confirmed = !!value && billing?.subscription?.plan === value
  const waiting = !!value && value !== 'cancel' && !confirmed && polls < RETURN_POLLS

  useEffect(() => {
    if (!waiting) return
    const timer = setTimeout(() => {
      router.reload({
        onFinish: () => setPolls((n) => n + 1),
      })
    }, 2000)
    return () => clearTimeout(timer)
  }, [waiting, polls])

  if (!value) return null
  const card = Object.entries(PRICING_CARDS).find(([plan]) => plan === value)?.[1]
  const planName = card ? t(`stripeBilling.cards.${card.key}.name`) : value
  const tone = value === 'cancel' ? 'muted' : confirmed ? 'success' : 'muted'
  return (
    <div
      role="status"
      data-testid="stripe-return"
      data-state={
        value === 'cancel' ? 'canceled' : confirmed ? 'confirmed' : waiting ? 'waiting' : 'late'
      }
      className={cn(
        'flex flex-wrap items-center gap-2 rounded-lg border px-4 py-3 text-sm',
        tone === 'success' ? 'border-success/40 bg-success/10' : 'bg-muted/30'
      )}
    >
      {waiting && <LoaderCircleIcon aria-hidden className="size-4 animate-spin" />}
      {value === 'cancel'
        ? t('stripeBilling.return.canceled')
        : confirmed
          ? t('stripeBilling.return.confirmed', { plan: planName })
          : waiting
            ? t('stripeBilling.return.waiting', { plan: planName })
            : t('stripeBilling.return.late')}
      {confirmed && (
        <Link href="/bots" className="font-medium underline underline-offset-4">
          {t('stripeBilling.return.toBots')}
        </Link>
      )}
    </div>
  )
}
