/**
 * The plugin contract: what a plugin declares (its manifest, imported by the server and
 * by the browser) and what its runner receives and returns (server only).
 *
 * Like fields.ts this module is imported by manifests in the browser: type-only imports
 * aside, it must not import Node or server modules.
 */
import type { Fields, ShowIf } from './fields.js'
import type { OutputSchemaDeclaration } from './output_schema.js'

export const BOT_CATEGORIES = ['bubble', 'input', 'logic', 'integration'] as const
export const WORKFLOW_CATEGORIES = ['trigger', 'action', 'model', 'tool', 'data', 'flow'] as const
export const PLUGIN_CATEGORIES = [...BOT_CATEGORIES, ...WORKFLOW_CATEGORIES] as const
export const PLUGIN_SCOPES = ['user', 'workspace'] as const
export const PLUGIN_SURFACES = ['bot', 'workflow'] as const

export type BotCategory = (typeof BOT_CATEGORIES)[number]
export type WorkflowCategory = (typeof WORKFLOW_CATEGORIES)[number]
export type PluginCategory = (typeof PLUGIN_CATEGORIES)[number]
export type PluginScope = (typeof PLUGIN_SCOPES)[number]
export type PluginSurface = (typeof PLUGIN_SURFACES)[number]

/** Where a category of one surface is listed on the other, for plugins serving both. */
const TO_WORKFLOW: Record<BotCategory, WorkflowCategory> = {
  bubble: 'action',
  input: 'action',
  logic: 'flow',
  integration: 'action',
}
const TO_BOT: Record<WorkflowCategory, BotCategory> = {
  trigger: 'integration',
  action: 'integration',
  model: 'integration',
  tool: 'integration',
  data: 'integration',
  flow: 'logic',
}

/** The category a plugin is listed under in the editor of `surface`. */
export function categoryOn(
  plugin: Pick<PluginDeclaration<any, any, any>, 'category' | 'categories'>,
  surface: PluginSurface
): PluginCategory {
  const chosen = plugin.categories?.[surface]
  if (chosen) return chosen
  if (surface === 'bot') {
    return (BOT_CATEGORIES as readonly string[]).includes(plugin.category)
      ? plugin.category
      : TO_BOT[plugin.category as WorkflowCategory]
  }
  return (WORKFLOW_CATEGORIES as readonly string[]).includes(plugin.category)
    ? plugin.category
    : TO_WORKFLOW[plugin.category as BotCategory]
}

export interface ActionDeclaration<F extends Fields = Fields> {
  label: string
  description?: string
  options?: F
  /** The editors that offer the action (both by default), as for fields. */
  surfaces?: readonly PluginSurface[]
}

/**
 * Items a bot block carries beside its options (choice buttons, condition branches,
 * AB-test paths). Each item has an id and its own outgoing edge; `fields` describe the
 * rest of the item.
 */
export interface ItemsDeclaration<F extends Fields = Fields> {
  fields: F
  /** Fewer items than this cannot exist (the last item of a block cannot be deleted). */
  min?: number
  max?: number
  /** Items of a freshly dropped block (ids are added by the editor). */
  defaultItems?: readonly Record<string, unknown>[]
  /**
   * Every run leaves by one of the items (an A/B split): the block has no way out of its own,
   * so the editor draws no block-level handle.
   */
  coverEveryPath?: boolean
  /**
   * The item (the one whose `field` equals `equals`) whose path the block repeats (a loop):
   * the editors mark that path as repeated.
   */
  repeats?: { field: string; equals: string }
}

export interface PluginDeclaration<
  Options extends Fields = Fields,
  Actions extends Record<string, ActionDeclaration<any>> = Record<string, ActionDeclaration<any>>,
  Credentials extends Fields = Fields,
> {
  /** The block `type` stored in bot and workflow JSON, e.g. 'text input' or 'openai'. */
  id: string
  /**
   * The folder name under plugins/. Defaults to slugOf(id); set it only when two ids
   * share a slug ('Webhook' and 'webhook').
   */
  slug?: string
  /** The short label of palettes and block headers. */
  name: string
  /**
   * The plugin's full name (every block has a name and a fullName), e.g. "PostgreSQL
   * database" for "PostgreSQL": shown where there is room (the palette's tooltip, the
   * settings header) and matched by the palette search.
   */
  fullName: string
  /**
   * Words a builder may search for that are not in the name ("llm" for OpenAI, "sql" for
   * MySQL): the palette search matches them. Lower case.
   */
  tags: readonly string[]
  description?: string
  category: PluginCategory
  /**
   * A plugin serving both surfaces may name where each editor lists it; otherwise its
   * category is mapped to the other surface by `categoryOn`.
   */
  categories?: { bot?: BotCategory; workflow?: WorkflowCategory }
  /** Who owns the credentials the plugin uses: the user or the whole workspace. */
  scope: PluginScope
  /** A lucide icon name, or a path relative to the plugin folder (icon.svg). */
  icon?: string
  version: number
  docsUrl?: string
  serves: readonly PluginSurface[]
  /**
   * Origins (`https://host`) of the scripts the plugin's client-side action loads into the
   * page that embeds a bot (an analytics tag, a support widget's SDK). An embed loads no
   * script into its host page from any other origin, unless the site owner lists it in the
   * embed's options (docs/embed.md).
   */
  hostScripts?: readonly string[]
  /**
   * Ids this plugin was stored under before (two plugins folded into one): bots and
   * workflows that still use them load, validate and run as this plugin.
   */
  aliases?: readonly string[]
  /**
   * Options stored under an alias whose shape differs (the folded plugin named its fields
   * otherwise) turned into this plugin's: applied when an editor opens the block and when
   * an engine runs it, so stored bots and workflows never need rewriting.
   */
  fromAlias?: (alias: string, options: Record<string, unknown>) => Record<string, unknown>
  /**
   * Node types of other tools this plugin takes over on import, by tool: `n8n` lists n8n
   * node types ('n8n-nodes-base.httpRequest'); the runner's `fromN8n` export converts them
   * (#sdk/n8n). '*' takes every type no other plugin lists (the placeholder).
   */
  importsFrom?: { n8n?: readonly string[] }
  /**
   * A plan feature the block needs (e.g. 'fileUpload'): on plans without it the block is
   * locked in the editor and refused on save and publish, as the Plans page says. The app's
   * registry refuses a name its plans do not have.
   */
  planFeature?: string
  /**
   * Where a bot block keeps its configuration. Bubbles of the v6 format keep it in
   * `content`, every other block in `options`.
   */
  storedIn?: 'options' | 'content'
  /**
   * Bubbles that show `{{variable}}` text as it arrives (the text bubble): a block whose
   * answer fills a variable the next such bubble mentions may stream it to the visitor.
   * A flag, so the engine asks for the ability and never for a plugin id.
   */
  showsStreamedText?: boolean
  /**
   * An input taking the files a contact sends on a messaging channel (docs/channels.md):
   * given the block's options and the file's kind, where to keep it, or null when this
   * block does not take it. `filesOnly`: the answer is the URLs (a caption is not kept).
   * `multiple`: several files sent at once make one answer; otherwise the first is taken.
   */
  receivesFiles?: (
    options: Record<string, any>,
    kind: 'image' | 'video' | 'audio' | 'voice' | 'document' | 'sticker'
  ) => {
    visibility?: unknown
    sizeLimitMb?: number
    filesOnly?: boolean
    multiple?: boolean
  } | null
  /** Fields shared by every action (or the only fields, for a block without actions). */
  options?: Options
  /** Named actions; the chosen key is stored in options.action. */
  actions?: Actions
  /** The credential record's fields; their type is the plugin id. */
  credentials?: Credentials
  /**
   * Credentials connected through an OAuth 2 authorization-code flow (Google and the
   * like): the record holds the OAuth client (`clientId`, `clientSecret`, optionally
   * `authorizeUrl` and `tokenUrl` overriding these defaults); the credentials page offers
   * Connect, and the callback stores the tokens in the encrypted record under `oauth`
   * (docs/plugins.md, "OAuth credentials").
   */
  oauth?: OAuthDeclaration
  items?: ItemsDeclaration<any>
  /**
   * Bot inputs whose question shows something to the visitor (buttons, pictures, cards, a
   * payment form): a `message` sent with startChat never answers them unseen.
   */
  showsContent?: boolean
  /** Workflow nodes that park a run until a time or a call (compiled into wait_blocks). */
  waits?: boolean
  /**
   * Workflow nodes that change nothing outside their run (they compute from their input and
   * variables, or answer the run's own webhook call): running one again after a crash is
   * harmless, so a run writes their records in one batch with the next node that reaches
   * outside, a wait, or its end, instead of one write per node.
   */
  replayable?: boolean
  /**
   * Workflow nodes into which Model and Tool nodes plug (an LLM agent): the editor draws a
   * handle per slot; the runner finds the plugged nodes in `workflow.attachments`.
   */
  attachments?: readonly AttachmentSlotDeclaration[]
  /**
   * Workflow nodes that someone outside calls at a URL of ours (a webhook trigger, an event
   * trigger whose service must be told where to post, a wait resumed by a call): the editor
   * shows the node's URL in its settings, with a copy button and the hint. Declared here so
   * that the core shows URLs without knowing which plugins have one.
   */
  exposesUrl?: ExposedUrlDeclaration
  /**
   * Workflow nodes: what the node outputs (output_schema.ts), so the editor offers its
   * fields before any test run. Optional: without it they appear once a run gave data.
   */
  outputSchema?: OutputSchemaDeclaration
  /**
   * A plugin whose runner.ts exports `vectorStore` (a VectorStoreBackend of
   * `@flowcraft/sdk/runner`): knowledge stores can live in its service, on an account of
   * its credentials. Declared here so that the store form offers it without loading runners.
   */
  vectorStore?: boolean
}

export interface OAuthDeclaration {
  authorizeUrl: string
  tokenUrl: string
  /** The scopes asked for: one credential kind per set of scopes (Sheets, Calendar...). */
  scopes: readonly string[]
  /** Extra query parameters of the authorize URL (Google: access_type=offline, prompt=consent). */
  authorizeParams?: Readonly<Record<string, string>>
  /**
   * A credential field where a token may be pasted instead of connecting (LinkedIn's
   * `accessToken`): a record with it filled counts as connected.
   */
  tokenField?: string
  /**
   * The prefix of environment variables where the operator may register one OAuth client
   * for the whole instance (`{prefix}_CLIENT_ID`, `{prefix}_CLIENT_SECRET`, optionally
   * `{prefix}_AUTHORIZE_URL`, `{prefix}_TOKEN_URL`): records without a client of their own
   * connect and refresh with it (app/services/oauth_clients.ts).
   */
  appClientEnv?: string
}

/** What the OAuth callback stores in a credential record, under `oauth`. */
export interface OAuthTokens {
  accessToken: string
  refreshToken?: string
  /** Epoch milliseconds; absent when the provider did not say. */
  expiresAt?: number
  scope?: string
  connectedAt: string
}

export interface ExposedUrlDeclaration {
  /**
   * Which of our endpoints: 'webhook' POST|GET /api/v1/workflows/{id}/webhook, 'event'
   * POST /api/v1/workflows/{id}/events/{nodeId}, 'resume' POST
   * /api/v1/workflows/{id}/webhook/runs/{runId} (the run id is known once a run waits).
   */
  kind: 'webhook' | 'event' | 'resume'
  /** One line under the URL: where to paste it or how it is called (translated as url.hint). */
  hint?: string
  /** Only while the node's options say it is called (a wait resumed by a webhook). */
  showIf?: ShowIf
  /** The option holding the HTTP method callers use (the editor's example call uses it). */
  methodOption?: string
  /** The option holding a secret callers send, and the header they send it in. */
  secretOption?: string
  secretHeader?: string
}

export interface AttachmentSlotDeclaration {
  /** Stored as the attachment edge's attachmentName ('model', 'tools'). */
  name: string
  /** Shown on the node; translated as attachments.<name>.label in the plugin's locales. */
  label?: string
  /** Plugin categories that plug in here (default: the category the slot is named after). */
  accepts?: readonly PluginCategory[]
  /** Several nodes may plug in (tools); otherwise a single one (model). */
  multiple?: boolean
  /** Publishing refuses the workflow while an enabled node of this slot is missing. */
  required?: boolean
}

/**
 * Identity function: it only gives the declaration its type, keeping the literal types
 * (field kinds, enum values, action names) that runners infer their options from.
 */
export function definePlugin<
  const Options extends Fields = {},
  const Actions extends Record<string, ActionDeclaration<any>> = {},
  const Credentials extends Fields = {},
  const Declaration extends PluginDeclaration<Options, Actions, Credentials> = PluginDeclaration<
    Options,
    Actions,
    Credentials
  >,
>(declaration: Declaration & PluginDeclaration<Options, Actions, Credentials>): Declaration {
  return declaration
}

/** The folder name of an id: lower case, every run of other characters becomes '-'. */
export function slugOf(id: string): string {
  return id
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

export function pluginSlug(declaration: Pick<PluginDeclaration, 'id' | 'slug'>) {
  return declaration.slug ?? slugOf(declaration.id)
}

// The runner side of the contract (types, and the helpers runners share).
export * from './runner_types.js'

type AnyDeclaration = PluginDeclaration<any, any, any>

function onSurface(surfaces: readonly PluginSurface[] | undefined, surface: PluginSurface) {
  return !surfaces || surfaces.includes(surface)
}

function fieldsOnSurface<F extends Fields | undefined>(fields: F, surface: PluginSurface): F {
  if (!fields) return fields
  const kept = Object.entries(fields)
    .filter(([, declared]) => onSurface(declared.surfaces, surface))
    .map(([name, declared]) => {
      const nested = (declared as { fields?: Fields }).fields
      return [name, nested ? { ...declared, fields: fieldsOnSurface(nested, surface) } : declared]
    })
  return Object.fromEntries(kept) as F
}

/**
 * The declaration as the editor of `surface` sees it: fields and actions kept to the other
 * surface left out (forms, defaults). Validation and runners keep the full declaration.
 */
export function forSurface<P extends AnyDeclaration>(plugin: P, surface: PluginSurface): P {
  const actions = plugin.actions
    ? Object.fromEntries(
        Object.entries(plugin.actions as Record<string, ActionDeclaration>)
          .filter(([, action]) => onSurface(action.surfaces, surface))
          .map(([name, action]) => [
            name,
            { ...action, options: fieldsOnSurface(action.options, surface) },
          ])
      )
    : undefined
  return {
    ...plugin,
    options: fieldsOnSurface(plugin.options, surface),
    ...(actions ? { actions } : {}),
    ...(plugin.items
      ? { items: { ...plugin.items, fields: fieldsOnSurface(plugin.items.fields, surface) } }
      : {}),
  }
}

/**
 * A block's options as the plugin reads them: those stored under a former id (an alias)
 * go through `fromAlias`, and a block of a plugin whose `surface` offers one action gets
 * it when stored without one.
 */
export function storedOptionsOf(
  plugin: AnyDeclaration,
  storedType: string,
  options: Record<string, unknown>,
  surface: PluginSurface
): Record<string, unknown> {
  if (storedType === plugin.id) return options
  const upgraded = plugin.fromAlias ? plugin.fromAlias(storedType, options) : options
  const actions = Object.entries((plugin.actions ?? {}) as Record<string, ActionDeclaration>)
    .filter(([, action]) => onSurface(action.surfaces, surface))
    .map(([name]) => name)
  return actions.length === 1 && upgraded.action === undefined
    ? { ...upgraded, action: actions[0] }
    : upgraded
}

/**
 * The action a stored block or node runs: its `options.action` when the plugin declares
 * actions. A plugin without actions may have an option of that name for its own use (the
 * Google Analytics block's event action), which names no runner.
 */
export function storedActionOf(
  plugin: Pick<PluginDeclaration<any, any, any>, 'actions'>,
  options: Record<string, unknown>
): string | undefined {
  if (!plugin.actions || Object.keys(plugin.actions).length === 0) return undefined
  return typeof options.action === 'string' ? options.action : undefined
}
