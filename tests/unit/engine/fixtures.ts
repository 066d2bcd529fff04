import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrateBot } from '#shared/bot/migrate'
import type { EngineBot } from '#engine/bot/ports'

/**
 * The chat fixtures (tests/fixtures/chat/*.json): a v6 (or older) bot, the bots it links
 * to, and conversations with the expected reply of every turn. The engine unit tests,
 * the chat API functional tests and the viewer browser tests all read them.
 */

export interface TurnExpectation {
  messages?: string[]
  messageTypes?: string[]
  /** The input type asked after the turn; null: none. */
  input?: string | null
  itemContents?: string[]
  variables?: Record<string, unknown>
  variablesMatch?: Record<string, string>
  completed?: boolean
  logsContain?: string[]
  actions?: string[]
  /** Values the result holds after the turn, by variable name. */
  resultVariables?: Record<string, unknown>
}

export interface Turn {
  send?: string | { type: 'text'; text: string; attachedFileUrls?: string[] }
  expect: TurnExpectation
}

export interface Conversation {
  name: string
  prefilledVariables?: Record<string, unknown>
  turns: Turn[]
}

export interface ChatFixture {
  file: string
  description: string
  bot: Record<string, any>
  linkedBots: Record<string, any>[]
  conversations: Conversation[]
}

const DIR = fileURLToPath(new URL('../../fixtures/chat/', import.meta.url))

export function chatFixtures(): ChatFixture[] {
  return readdirSync(DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => ({ file, ...JSON.parse(readFileSync(join(DIR, file), 'utf8')) }))
}

export function chatFixture(name: string): ChatFixture {
  return chatFixtures().find((fixture) => fixture.file === `${name}.json`)!
}

export function toEngineBot(raw: Record<string, any>, workspaceId = 'ws_test'): EngineBot {
  return {
    id: raw.id,
    workspaceId,
    ownerId: null,
    publishedAt: '2026-01-01T00:00:00.000Z',
    content: migrateBot(raw),
  }
}
