import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { Stripe, StripeElements } from '@stripe/stripe-js'
// The "pure" entry loads Stripe's script only when asked: the chat pays for it only when a
// payment input appears.
import { loadStripe } from '@stripe/stripe-js/pure'
import { type ChatInputProps, InputError, InputRow, optionText, SendButton } from '#sdk/viewer'

function text(value: unknown) {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined
}

/** The visitor's details the builder collected earlier (name, e-mail, phone, address). */
function billingDetails(options: Record<string, unknown>) {
  const info = (options.additionalInformation ?? {}) as Record<string, unknown>
  const address = (info.address ?? {}) as Record<string, unknown>
  const details: Record<string, unknown> = {}
  if (text(info.name)) details.name = text(info.name)
  if (text(info.email)) details.email = text(info.email)
  if (text(info.phoneNumber)) details.phone = text(info.phoneNumber)
  const parts = {
    country: text(address.country),
    line1: text(address.line1),
    line2: text(address.line2),
    state: text(address.state),
    city: text(address.city),
    postal_code: text(address.postalCode),
  }
  if (Object.values(parts).some(Boolean)) details.address = parts
  return details
}

export default function PaymentInput({ input, disabled, onSubmit }: ChatInputProps) {
  const { t, i18n } = useTranslation()
  const options = input.options
  const runtime = input.runtimeOptions ?? {}
  const publicKey = text(runtime.publicKey)
  const clientSecret = text(runtime.paymentIntentSecret)
  const amountLabel = text(runtime.amountLabel)
  const mountRef = useRef<HTMLDivElement>(null)
  const stripeRef = useRef<{ stripe: Stripe; elements: StripeElements } | null>(null)
  const [ready, setReady] = useState(false)
  const [paying, setPaying] = useState(false)
  const [error, setError] = useState<string | undefined>(
    publicKey && clientSecret ? undefined : t('viewer.payment.notConfigured')
  )

  useEffect(() => {
    if (!publicKey || !clientSecret || !mountRef.current) return
    let cancelled = false
    const target = mountRef.current
    loadStripe(publicKey, { locale: i18n.language as 'auto' })
      .then((stripe) => {
        if (cancelled) return
        if (!stripe) throw new Error('Stripe did not load')
        const elements = stripe.elements({ clientSecret })
        const element = elements.create('payment', { layout: 'tabs' })
        element.on('ready', () => !cancelled && setReady(true))
        element.mount(target)
        stripeRef.current = { stripe, elements }
      })
      .catch(() => !cancelled && setError(t('viewer.payment.loadFailed')))
    return () => {
      cancelled = true
      stripeRef.current?.elements.getElement('payment')?.destroy()
      stripeRef.current = null
    }
  }, [publicKey, clientSecret, i18n.language, t])

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault()
    const loaded = stripeRef.current
    if (!loaded || paying || disabled) return
    setPaying(true)
    setError(undefined)
    const { error: failure, paymentIntent } = await loaded.stripe.confirmPayment({
      elements: loaded.elements,
      redirect: 'if_required',
      confirmParams: {
        return_url: window.location.href,
        payment_method_data: { billing_details: billingDetails(options) },
      },
    })
    setPaying(false)
    if (failure) {
      setError(failure.message ?? t('viewer.payment.failed'))
      return
    }
    if (paymentIntent && ['succeeded', 'processing'].includes(paymentIntent.status)) {
      onSubmit({ text: 'Success', display: optionText(options, 'labels.success') })
    } else {
      setError(t('viewer.payment.failed'))
    }
  }

  const label = optionText(options, 'labels.button') ?? t('viewer.payment.pay')
  return (
    <InputRow>
      <form
        onSubmit={handleSubmit}
        className="fc-input flex w-full flex-col gap-3 p-3"
        data-input-type={input.type}
        aria-busy={!ready || undefined}
      >
        <div ref={mountRef} className="min-h-10" />
        {!ready && !error && <div className="h-24 animate-pulse rounded bg-black/5" aria-hidden />}
        <InputError>{error}</InputError>
        <SendButton
          label={amountLabel ? `${label} ${amountLabel}` : label}
          disabled={!ready}
          sending={paying || disabled}
          className="w-full"
        />
      </form>
    </InputRow>
  )
}
