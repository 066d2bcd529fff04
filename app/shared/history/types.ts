/**
 * The history of an editor's document (bots and workflows alike, docs/workflows.md
 * "History"): what made each version.
 * - draft: the builder's autosaves since the last fixed version (updated while it is the latest);
 * - publish, restore, named: fixed when made;
 * - assistant: one change of the copilot, fixed too, so each can be undone.
 */
export type VersionKind = 'draft' | 'publish' | 'restore' | 'named' | 'assistant'

export const VERSION_KINDS: readonly VersionKind[] = [
  'draft',
  'publish',
  'restore',
  'named',
  'assistant',
]

/** The longest name a builder may give a version. */
export const VERSION_NAME_MAX_LENGTH = 120

/** Who made a version, as the history lists it. */
export interface VersionAuthorDto {
  id: string
  name: string | null
  email: string
}

/** A bot's history version as the editor gets it (GET /api/v1/bots/{id}/versions). */
export interface BotVersionDto<Snapshot = unknown> {
  id: string
  versionName: string
  kind: VersionKind
  content: Snapshot
  author: VersionAuthorDto | null
  createdAt: string
  updatedAt: string
}

export interface BotHistoryDto<Snapshot = unknown> {
  /** Newest first. */
  versions: BotVersionDto<Snapshot>[]
}
