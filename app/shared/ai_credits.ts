/**
 * AI credit shapes shared by the server (app/services/ai/credits.ts) and the pages that
 * show them (admin price table, Billing & Usage). Amounts of credits travel as 9-decimal
 * text: a JSON number could lose the last digits.
 */

/** A row of the price table: how many tokens one credit buys with a model. */
export interface AiPriceRow {
  id: number
  model: string
  inputToken: number
  outputToken: number
  /** The row used for calls without a model or with an unpriced one. */
  isDefault: boolean
}

export interface AiUsageRow {
  id: number
  createdAt: string
  /** The block or node type that made the call. */
  source: string | null
  model: string | null
  inputTokens: number
  outputTokens: number
  credits: string
}

/** What Billing & Usage shows: the balance, this month's totals and the latest rows. */
export interface AiUsageSummary {
  credits: string
  month: {
    /** ISO start of the current month (server time). */
    start: string
    calls: number
    inputTokens: number
    outputTokens: number
    credits: string
  }
  latest: AiUsageRow[]
}

/** Flashed after an admin adds credits to a user. */
export interface AiCreditsGranted {
  email: string
  amount: number
  credits: string
}
