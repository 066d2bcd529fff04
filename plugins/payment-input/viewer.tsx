import { lazy } from 'react'

/**
 * The card form. Lazy: Stripe's SDK is only fetched by the bots that take payments (the
 * chat shows a placeholder while it loads).
 */
const PaymentInput = lazy(() => import('./stripe_payment'))

export default PaymentInput
