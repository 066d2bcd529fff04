/**
 * Stripe billing shapes shared by the server and the browser (docs/billing.md).
 */
import type { PlanName } from './plans.js'

export const BILLING_PERIODS = ['month', 'year'] as const
export type BillingPeriod = (typeof BILLING_PERIODS)[number]

/** The plans that can be bought, in the order of the pricing cards. */
export const PAID_PLANS = ['BASIC', 'STANDARD', 'ENTERPRIZE'] as const satisfies readonly PlanName[]
export type PaidPlanName = (typeof PAID_PLANS)[number]

/**
 * Marketing names of the pricing cards : Starter is BASIC, Pro is STANDARD, the one marked most popular.
 */
export const PRICING_CARDS: Record<PaidPlanName, { key: string; mostPopular: boolean }> = {
  BASIC: { key: 'starter', mostPopular: false },
  STANDARD: { key: 'pro', mostPopular: true },
  ENTERPRIZE: { key: 'enterprise', mostPopular: false },
}

/** Share of the subscription given to carbon removal. */
export const CARBON_REMOVAL_PERCENT = 1

/** The chat-limit warning shows from this share of the month's chats on. */
export const CHAT_WARNING_RATIO = 0.8

/** Tax id types offered by the pre-checkout modal: Stripe's `tax_id_data[].type` values. */
export const TAX_ID_TYPES = [
  { type: 'eu_vat', label: 'EU VAT' },
  { type: 'gb_vat', label: 'UK VAT' },
  { type: 'ch_vat', label: 'Swiss VAT' },
  { type: 'no_vat', label: 'Norwegian VAT' },
  { type: 'us_ein', label: 'US EIN' },
  { type: 'ca_bn', label: 'Canadian BN' },
  { type: 'au_abn', label: 'Australian ABN' },
  { type: 'in_gst', label: 'Indian GST' },
  { type: 'br_cnpj', label: 'Brazilian CNPJ' },
  { type: 'jp_cn', label: 'Japanese corporate number' },
] as const
export type TaxIdType = (typeof TAX_ID_TYPES)[number]['type']

/**
 * A price as Stripe holds it: amount in the currency's smallest unit; null when Stripe
 * could not be asked (the card still sells it, Checkout shows the amount).
 */
export interface PriceDto {
  amount: number | null
  currency: string
}

/** One pricing card: a paid plan and the periods it is sold for. */
export interface PricingCardDto {
  plan: PaidPlanName
  label: string
  mostPopular: boolean
  conversations: number
  seats: number
  monthly: PriceDto | null
  yearly: PriceDto | null
}

export interface SubscriptionDto {
  plan: PlanName
  period: BillingPeriod
  status: string
  currentPeriodEnd: string | null
  cancelAt: string | null
}

/** What the Billing & Usage tab shows about the current workspace. */
export interface BillingTabDto {
  enabled: boolean
  /** Workspace ADMINs buy, open the portal and read invoices. */
  canManage: boolean
  hasCustomer: boolean
  isPastDue: boolean
  subscription: SubscriptionDto | null
  chats: { used: number; limit: number; nearingLimit: boolean; reached: boolean }
}

export interface InvoiceDto {
  id: string
  number: string | null
  status: string | null
  paidAt: string | null
  createdAt: string
  subtotal: number
  total: number
  currency: string
  hostedUrl: string | null
  pdfUrl: string | null
}

/** Whether `used` chats of `limit` (-1 unlimited) call for the warning. */
export function chatUsageState(used: number, limit: number) {
  if (limit < 0) return { nearingLimit: false, reached: false }
  return { nearingLimit: used >= limit * CHAT_WARNING_RATIO, reached: used >= limit }
}
