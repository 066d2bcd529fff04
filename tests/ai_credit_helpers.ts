import db from '@adonisjs/lucid/services/db'
import AiUsage from '#models/ai_usage'
import { definePlugin } from '#plugins/define_plugin'

/** round_half_up(1e9 * (input / inputPrice + output / outputPrice)) for whole-number prices. */
export function expectedNanos(
  input: number,
  output: number,
  inputPrice: number,
  outputPrice: number
) {
  const numerator =
    (BigInt(input) * BigInt(outputPrice) + BigInt(output) * BigInt(inputPrice)) * 1_000_000_000n
  const denominator = BigInt(inputPrice) * BigInt(outputPrice)
  const quotient = numerator / denominator
  return (numerator % denominator) * 2n >= denominator ? quotient + 1n : quotient
}

export function nanosText(nanos: bigint) {
  const sign = nanos < 0n ? '-' : ''
  const abs = nanos < 0n ? -nanos : nanos
  return `${sign}${abs / 1_000_000_000n}.${(abs % 1_000_000_000n).toString().padStart(9, '0')}`
}

/** The stored balance to 9 decimals, whatever the driver returns (float or string). */
export async function storedBalance(userId: string) {
  const row = await db.from('users').where('id', userId).select('ai_credits').firstOrFail()
  return Number(row.ai_credits).toFixed(9)
}

export async function usageCount(userId: string) {
  return (await AiUsage.query().where('accountId', userId)).length
}

export async function setCredits(userId: string, amount: string) {
  await db.from('users').where('id', userId).update({ ai_credits: amount })
}

export const MINI = { model: 'gpt-4o-mini', input: 6_666_667, output: 1_666_667 }
export const DEFAULT = { input: 2_000_000, output: 500_000 }

export const probe = definePlugin({
  id: 'credits-probe',
  name: 'Credits probe',
  fullName: 'Credits probe',
  tags: [],
  category: 'integration',
  scope: 'user',
  version: 1,
  serves: ['bot'],
  options: {},
})
