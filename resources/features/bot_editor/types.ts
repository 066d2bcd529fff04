import type { BlockIssue } from '#shared/block_issues'
import type { BotV6 } from '#shared/bot/types'
import type { UserMode } from '#shared/workspace_roles'
import type { FormDescription } from '~/features/plugin_form/types'

export type EditorTab = 'edit' | 'theme' | 'settings' | 'results'

/** A plugin as the editor controller sends it (app/controllers/bots/editor_controller.ts). */
export interface EditorPlugin {
  id: string
  name: string
  fullName: string
  tags: readonly string[]
  category: 'bubble' | 'input' | 'logic' | 'integration'
  icon: string | null
  locked: boolean
  defaults: Record<string, unknown>
  defaultItems: Record<string, unknown>[]
  form: FormDescription
}

/** The published version, compared with the draft for the unpublished-changes indicator. */
export interface PublishedContent {
  groups: unknown
  events: unknown
  edges?: unknown
  variables: unknown
  theme: unknown
  settings: unknown
  publishedAt: string | null
  version?: string
}

/** A bot as the server sends it to the editor: its id and draft revision besides the content. */
export type ServerBot = BotV6 & { id: string; revision?: number }

export interface EditorPageProps {
  tab: EditorTab
  /** The Results tab's view: /bots/{id}/results/analytics opens the analytics. */
  resultsView?: 'table' | 'analytics'
  bot: ServerBot
  /** The version the bot is stored in; older than 6 means it was migrated on open. */
  storedVersion: string
  currentUserMode: UserMode
  published: PublishedContent | null
  plugins: EditorPlugin[]
  /** The draft's blocks' fields their validators refuse, as of opening. */
  issues?: BlockIssue[]
}

/** The answer of PATCH /api/v1/bots/:id, publish and unpublish. */
export interface BotSaveResponse {
  bot: ServerBot
  currentUserMode?: UserMode
  publishedAt: string | null
  /** Saves only: the blocks' fields their validators refuse (app/plugins/block_issues.ts). */
  issues?: BlockIssue[]
}
