/**
 * The report of an import of several exported bots (POST /api/bots/import-set), shown by
 * the "Import from Typebot" page (docs/migrating-from-typebot.md).
 */

/**
 * What of a bot has no effect here: a block type no plugin provides, a non-start event,
 * a settings or theme key the app does not read, a block whose credentials must be picked
 * again, a link to a bot that is neither in the set nor in the workspace, a custom domain
 * (set up again in the bot's settings), a publicId already taken.
 */
export type NotCarriedKind =
  'block' | 'event' | 'setting' | 'theme' | 'credentials' | 'link' | 'domain' | 'publicId'

export interface NotCarriedItem {
  kind: NotCarriedKind
  /** The block type, setting path, bot id, domain... */
  what: string
  /** The group title, for blocks. */
  where?: string
}

export interface ImportedBotReport {
  /** The uploaded file's name ('bots.zip/support.json' inside an archive). */
  file: string
  status: 'imported' | 'failed'
  error?: string
  name?: string
  /** The id in the file, and the id it has here (the same when it was free). */
  originalId?: string
  botId?: string
  publicId?: string | null
  notCarried: NotCarriedItem[]
}

export interface ImportSetReport {
  bots: ImportedBotReport[]
}
