/**
 * Reads the bot files of tests/fixtures/bots (our own files, written for these tests).
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { importBot } from '#shared/bot/parse'
import type { BotV6 } from '#shared/bot/types'

export type FixtureName = 'v3_start_group' | 'v5_bot' | 'v6_full' | 'not_a_bot'

export function fixtureText(name: FixtureName): string {
  return readFileSync(
    fileURLToPath(new URL(`../../fixtures/bots/${name}.json`, import.meta.url)),
    'utf8'
  )
}

export function fixture(name: FixtureName): Record<string, any> {
  return JSON.parse(fixtureText(name))
}

/** The v6 fixture as the editor holds it. */
export function pizzaBot(): BotV6 {
  return importBot(fixture('v6_full'))
}

/** Deep-frozen so that a test fails if an operation mutates its input. */
export function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const entry of Object.values(value)) frozen(entry)
    Object.freeze(value)
  }
  return value
}

export function groupOf(bot: BotV6, groupId: string) {
  const group = bot.groups.find((candidate) => candidate.id === groupId)
  if (!group) throw new Error(`No group ${groupId}`)
  return group
}

export function blockOf(bot: BotV6, blockId: string) {
  for (const group of bot.groups) {
    const block = group.blocks.find((candidate) => candidate.id === blockId)
    if (block) return block
  }
  throw new Error(`No block ${blockId}`)
}

export function edgeOf(bot: BotV6, edgeId: string) {
  return bot.edges.find((edge) => edge.id === edgeId)
}
