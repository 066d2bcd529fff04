import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import type { QueryClientContract } from '@adonisjs/lucid/types/database'
import AiModelPrice from '#models/ai_model_price'
import AiUsage from '#models/ai_usage'
import type { AiUsage as AiUsageInput, RunnerAi } from '#plugins/define_plugin'
import type { AiPriceRow, AiUsageSummary } from '#shared/ai_credits'
import { AiCallLimitExceededError, takeAiCall } from './ai_calls.js'

export type { AiPriceRow, AiUsageSummary } from '#shared/ai_credits'

/**
 * AI credit accounting. A credit is our unit, worth about one US dollar
 * of provider cost: a price row says how many input and output tokens one credit buys.
 *
 *   cost = input tokens / input price + output tokens / output price, rounded to 9 decimals
 *
 * Every provider call deducts its cost from the owner's `ai_credits` and leaves a usage row.
 * A call is refused before it is made when the owner has no credit left; a call that was
 * made is always recorded, even when it takes the balance below zero (the provider already
 * billed it).
 *
 * Amounts are computed in exact integer arithmetic (nano-credits) and handed to the
 * database as 9-decimal text: SQLite keeps decimals as binary floats, PostgreSQL and
 * MariaDB return them as strings, and both must agree to the 9th decimal.
 */

export const DEFAULT_PRICE_MODEL = 'default'

/** Credits a new account starts with (the migration's column default). */
export const INITIAL_AI_CREDITS = 10

/** Seeded rows (tokens per credit); admins edit them at /admin/ai-prices. */
export const DEFAULT_AI_PRICES: { model: string; inputToken: number; outputToken: number }[] = [
  { model: DEFAULT_PRICE_MODEL, inputToken: 2_000_000, outputToken: 500_000 },
  { model: 'gpt-4o-mini', inputToken: 6_666_667, outputToken: 1_666_667 },
  { model: 'gpt-4o', inputToken: 400_000, outputToken: 100_000 },
  { model: 'claude-3-opus-20240229', inputToken: 66_667, outputToken: 13_333 },
  { model: 'claude-3-haiku-20240307', inputToken: 4_000_000, outputToken: 800_000 },
  { model: 'llama-3.3-70b-versatile', inputToken: 1_694_915, outputToken: 1_265_823 },
  { model: 'mistral-small-latest', inputToken: 5_000_000, outputToken: 1_666_667 },
]

export class AiCreditLimitExceededError extends Error {
  constructor() {
    super('No AI credits left')
    this.name = 'AiCreditLimitExceededError'
  }
}

export class AiAccountNotFoundError extends Error {
  constructor() {
    super('User not found')
    this.name = 'AiAccountNotFoundError'
  }
}

/** Idempotent: adds missing rows, never overwrites an admin's edits. */
export async function seedAiPrices() {
  for (const row of DEFAULT_AI_PRICES) {
    const existing = await AiModelPrice.findBy('model', row.model)
    if (!existing) await AiModelPrice.create(row)
  }
}

const NANO = 1_000_000_000n
/** Price columns keep 6 decimals: prices become integers of millionths. */
const MICRO = 1_000_000n

/** a / b rounded half up to an integer, for a >= 0 and b > 0. */
function divideRounded(a: bigint, b: bigint): bigint {
  const quotient = a / b
  return (a % b) * 2n >= b ? quotient + 1n : quotient
}

/** A number or decimal string as whole nano-credits (exact for 9-decimal text). */
export function toNanoCredits(value: number | string): bigint {
  const text = typeof value === 'number' ? value.toFixed(9) : value.trim()
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text)
  if (!match) throw new Error(`Not a credit amount: ${value}`)
  const [, sign, whole, fraction = ''] = match
  const digits = BigInt(whole || '0') * NANO + BigInt((fraction + '000000000').slice(0, 9))
  // A 10th decimal or more rounds half up, like the 9-decimal rounding everywhere else.
  const rounded = fraction.length > 9 && Number(fraction[9]) >= 5 ? digits + 1n : digits
  return sign ? -rounded : rounded
}

/** Nano-credits as 9-decimal text ("0.000525300"): what the database receives. */
export function formatNanoCredits(nanos: bigint): string {
  const negative = nanos < 0n
  const abs = negative ? -nanos : nanos
  const text = `${abs / NANO}.${(abs % NANO).toString().padStart(9, '0')}`
  return negative ? `-${text}` : text
}

/** A stored amount (float on SQLite, string on PostgreSQL/MariaDB) as 9-decimal text. */
export function creditsText(value: unknown): string {
  if (value === null || value === undefined || value === '') return formatNanoCredits(0n)
  return formatNanoCredits(toNanoCredits(typeof value === 'number' ? value : String(value)))
}

export function roundCredits(value: number): number {
  return Number(formatNanoCredits(toNanoCredits(value)))
}

/** The exact cost in nano-credits (see the formula at the top). */
export function creditsCostNanos(
  usage: Pick<AiUsageInput, 'inputTokens' | 'outputTokens'>,
  price: { inputToken: number; outputToken: number }
): bigint {
  const inputPrice = toNanoCredits(price.inputToken) / (NANO / MICRO)
  const outputPrice = toNanoCredits(price.outputToken) / (NANO / MICRO)
  const inputTokens = BigInt(Math.max(0, Math.round(usage.inputTokens || 0)))
  const outputTokens = BigInt(Math.max(0, Math.round(usage.outputTokens || 0)))
  // tokens / (price / 1e6) in nano-credits = tokens * 1e6 * 1e9 / price; a price of 0 is free.
  let numerator = 0n
  let denominator = 1n
  if (inputPrice > 0n) {
    numerator = inputTokens * MICRO * NANO
    denominator = inputPrice
  }
  if (outputPrice > 0n) {
    numerator = numerator * outputPrice + outputTokens * MICRO * NANO * denominator
    denominator *= outputPrice
  }
  return divideRounded(numerator, denominator)
}

export function creditsCost(
  usage: Pick<AiUsageInput, 'inputTokens' | 'outputTokens'>,
  price: { inputToken: number; outputToken: number }
): number {
  return Number(formatNanoCredits(creditsCostNanos(usage, price)))
}

/** The model's row, else the default row (a call without a model, or an unpriced model). */
export async function priceFor(model?: string | null) {
  const exact = model ? await AiModelPrice.findBy('model', model) : null
  return exact ?? (await AiModelPrice.findBy('model', DEFAULT_PRICE_MODEL))
}

/** The balance as stored, as 9-decimal text, or undefined for an unknown user. */
export async function aiCreditsText(userId: string): Promise<string | undefined> {
  const row = await db.from('users').where('id', userId).select('ai_credits').first()
  return row ? creditsText(row.ai_credits) : undefined
}

export async function remainingAiCredits(userId: string): Promise<number | undefined> {
  const text = await aiCreditsText(userId)
  return text === undefined ? undefined : Number(text)
}

export async function ensureAiCredits(userId: string | null | undefined) {
  if (!userId) throw new AiAccountNotFoundError()
  const credits = await remainingAiCredits(userId)
  if (credits === undefined) throw new AiAccountNotFoundError()
  if (credits <= 0) throw new AiCreditLimitExceededError()
}

/**
 * `ai_credits <op> amount` rounded to 9 decimals, in one UPDATE: concurrent calls never
 * lose a change, and SQLite's float column does not drift away from the exact value.
 */
function addToCredits(client: QueryClientContract, amount: bigint) {
  return client.knexRawQuery('round(ai_credits + cast(? as decimal(24, 9)), 9)', [
    formatNanoCredits(amount),
  ])
}

/** The row count of an UPDATE (a number, or a one-element array on some drivers). */
function affectedRows(result: unknown): number {
  return Number(Array.isArray(result) ? (result[0] ?? 0) : result) || 0
}

export interface RecordAiUsageInput extends AiUsageInput {
  userId: string
  workspaceId?: string | null
  source?: string | null
}

/** Inserts the usage row and deducts its cost in one transaction; returns the cost. */
export async function recordAiUsage(input: RecordAiUsageInput): Promise<number> {
  const inputTokens = Math.max(0, Math.round(input.inputTokens || 0))
  const outputTokens = Math.max(0, Math.round(input.outputTokens || 0))
  const price = await priceFor(input.model)
  const nanos = price ? creditsCostNanos({ inputTokens, outputTokens }, price) : 0n
  const cost = Number(formatNanoCredits(nanos))
  await db.transaction(async (trx) => {
    // The balance first: its row lock orders concurrent calls of one owner. Inserting the
    // usage row first takes a shared lock on the user (foreign key) that MariaDB then cannot
    // upgrade while another call holds one too: a deadlock.
    const updated = await trx
      .from('users')
      .where('id', input.userId)
      .update({ ai_credits: addToCredits(trx, -nanos) })
    if (!affectedRows(updated)) throw new AiAccountNotFoundError()
    await AiUsage.create(
      {
        accountId: input.userId,
        workspaceId: input.workspaceId ?? null,
        model: input.model ?? null,
        source: input.source ?? null,
        inputTokens,
        outputTokens,
        creditsUsed: cost,
      },
      { client: trx }
    )
  })
  return cost
}

/**
 * Adds credits to an account (admins, `node ace ai:credits`); a negative amount takes
 * some back. Returns the new balance as 9-decimal text, or undefined for an unknown user.
 */
export async function grantAiCredits(
  userId: string,
  amount: number | string
): Promise<string | undefined> {
  const nanos = toNanoCredits(amount)
  const client = db.connection()
  const updated = await client
    .from('users')
    .where('id', userId)
    .update({ ai_credits: addToCredits(client, nanos) })
  if (!affectedRows(updated)) return undefined
  return aiCreditsText(userId)
}

/** The runner port (RunnerContext.ai) for one block run. */
export function aiPort(input: {
  ownerId?: string | null
  workspaceId?: string | null
  source?: string
  /** A block's or node's call: it takes one of the workspace's AI calls of the month. */
  countsAsAiCall?: boolean
}): RunnerAi & { limitExceeded(): boolean } {
  let exceeded = false
  return {
    async ensureCredits() {
      try {
        await ensureAiCredits(input.ownerId)
        if (input.countsAsAiCall && input.workspaceId) await takeAiCall(input.workspaceId)
      } catch (error) {
        if (error instanceof AiCreditLimitExceededError) exceeded = true
        if (error instanceof AiCallLimitExceededError) exceeded = true
        throw error
      }
    },
    async recordUsage(usage) {
      if (!input.ownerId) throw new AiAccountNotFoundError()
      await recordAiUsage({
        ...usage,
        userId: input.ownerId,
        workspaceId: input.workspaceId,
        source: input.source,
      })
    },
    limitExceeded: () => exceeded,
  }
}

export const LATEST_USAGE_ROWS = 50

export async function aiUsageSummary(
  userId: string,
  now = DateTime.now()
): Promise<AiUsageSummary> {
  const credits = (await aiCreditsText(userId)) ?? formatNanoCredits(0n)
  const start = now.startOf('month')
  const since = start.toFormat(db.connection().dialect.dateTimeFormat)
  const totals = await db
    .from('ai_usages')
    .where('account_id', userId)
    .where('created_at', '>=', since)
    .count('* as calls')
    .sum('input_tokens as input_tokens')
    .sum('output_tokens as output_tokens')
    .sum('credits_used as credits')
    .first()
  const rows = await AiUsage.query()
    .where('accountId', userId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(LATEST_USAGE_ROWS)
  return {
    credits,
    month: {
      start: start.toISO()!,
      calls: Number(totals?.calls ?? 0),
      inputTokens: Number(totals?.input_tokens ?? 0),
      outputTokens: Number(totals?.output_tokens ?? 0),
      credits: creditsText(totals?.credits),
    },
    latest: rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISO()!,
      source: row.source,
      model: row.model,
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      credits: creditsText(row.creditsUsed),
    })),
  }
}

function toPriceRow(price: AiModelPrice): AiPriceRow {
  return {
    id: price.id,
    model: price.model,
    inputToken: price.inputToken,
    outputToken: price.outputToken,
    isDefault: price.model === DEFAULT_PRICE_MODEL,
  }
}

/** The price table, the default row first, then by model name. */
export async function listAiPrices(): Promise<AiPriceRow[]> {
  const prices = await AiModelPrice.query().orderBy('model', 'asc')
  return prices
    .map(toPriceRow)
    .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.model.localeCompare(b.model))
}

export interface AiPriceInput {
  model: string
  inputToken: number
  outputToken: number
}

export async function createAiPrice(input: AiPriceInput): Promise<AiPriceRow> {
  return toPriceRow(await AiModelPrice.create(input))
}

/** The default row keeps its name: calls without a priced model are charged by it. */
export async function updateAiPrice(price: AiModelPrice, input: AiPriceInput): Promise<AiPriceRow> {
  price.merge({
    model: price.model === DEFAULT_PRICE_MODEL ? DEFAULT_PRICE_MODEL : input.model,
    inputToken: input.inputToken,
    outputToken: input.outputToken,
  })
  await price.save()
  return toPriceRow(price)
}

export class DefaultPriceDeletionError extends Error {
  constructor() {
    super('The default price cannot be deleted')
    this.name = 'DefaultPriceDeletionError'
  }
}

export async function deleteAiPrice(price: AiModelPrice) {
  if (price.model === DEFAULT_PRICE_MODEL) throw new DefaultPriceDeletionError()
  await price.delete()
}
