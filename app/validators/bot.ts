import { FOLDER_ACCESS_LEVELS } from '#shared/folder_access'
import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import {
  BOT_NUMBER_FIELDS,
  BOT_TEXT_FIELDS,
  numberProblem,
  textProblem,
  type NumberBound,
  type TextFormat,
} from '#shared/bot/settings_bounds'
import { VERSION_NAME_MAX_LENGTH } from '#shared/history/types'

/* The content is checked by validateBot (app/shared/bot/parse.ts); any JSON value may appear. */
const anyValue = () => vine.any().nullable().optional()

/** A number of the settings or theme, refused with the editor's own message. */
const withinBound = vine.createRule((value: unknown, bound: NumberBound, field: FieldContext) => {
  const problem = numberProblem(value, bound)
  if (problem) field.report(problem, 'bounds', field)
})

/** A text of the settings or theme in its format (only when `onlyIf` holds), likewise. */
const inFormat = vine.createRule(
  (
    value: unknown,
    rule: { format: TextFormat; onlyIf?: { key: string; equals: string } },
    field: FieldContext
  ) => {
    if (rule.onlyIf && (field.parent as any)?.[rule.onlyIf.key] !== rule.onlyIf.equals) return
    const problem = textProblem(value, rule.format)
    if (problem) field.report(problem, 'format', field)
  }
)

type Leaf = { schema: () => any }
type FieldTree = { [key: string]: FieldTree | Leaf }

function isLeaf(node: FieldTree | Leaf): node is Leaf {
  return typeof node.schema === 'function'
}

/** The settings' or theme's checked fields of the shared table, as nested paths. */
function fieldTree(root: 'settings' | 'theme'): FieldTree {
  const tree: FieldTree = {}
  const place = (path: string[], leaf: Leaf) => {
    if (path[0] !== root) return
    let node = tree
    path.slice(1, -1).forEach((key) => {
      node = (node[key] ??= {}) as FieldTree
    })
    node[path[path.length - 1]] = leaf
  }
  for (const { path, bound } of BOT_NUMBER_FIELDS) {
    place(path, { schema: () => vine.any().use(withinBound(bound)).optional() })
  }
  for (const { path, format, onlyIf } of BOT_TEXT_FIELDS) {
    place(path, { schema: () => vine.any().use(inFormat({ format, onlyIf })).optional() })
  }
  return tree
}

/** Any object, whose checked fields (at any depth) must fit the shared table. */
function checkedObject(tree: FieldTree): any {
  const properties: Record<string, any> = {}
  for (const [key, node] of Object.entries(tree)) {
    properties[key] = isLeaf(node) ? node.schema() : checkedObject(node).nullable().optional()
  }
  return vine.object(properties).allowUnknownProperties()
}

const content = {
  groups: vine.array(anyValue()).optional(),
  events: vine.array(anyValue()).optional(),
  edges: vine.array(anyValue()).optional(),
  variables: vine.array(anyValue()).optional(),
  theme: checkedObject(fieldTree('theme')).optional(),
  settings: checkedObject(fieldTree('settings')).optional(),
}

/** PATCH a bot: any subset; the content is then parsed against the bot format. */
export const updateBotValidator = vine.compile(
  vine.object({
    ...content,
    name: vine.string().trim().minLength(1).maxLength(255).optional(),
    icon: vine.string().trim().maxLength(1024).nullable().optional(),
    folderId: vine.string().trim().maxLength(32).nullable().optional(),
    publicId: vine.string().trim().maxLength(255).nullable().optional(),
    customDomain: vine.string().trim().maxLength(255).nullable().optional(),
    isArchived: vine.boolean().optional(),
    isClosed: vine.boolean().optional(),
    resultsTablePreferences: vine.record(anyValue()).nullable().optional(),
    selectedThemeTemplateId: vine.string().maxLength(32).nullable().optional(),
    /** The draft revision the editor loaded (docs/editor.md "Saving from two places"). */
    revision: vine.number().withoutDecimals().min(0).optional(),
  })
)

export const createBotValidator = vine.compile(
  vine.object({
    name: vine.string().trim().maxLength(255).optional(),
    folderId: vine.string().trim().maxLength(32).nullable().optional(),
  })
)

export const folderValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(255).optional(),
    parentFolderId: vine.string().trim().maxLength(32).nullable().optional(),
  })
)

/** "Use this template": the folder the new bot goes in (the dashboard when absent). */
export const useTemplateValidator = vine.compile(
  vine.object({
    folderId: vine.string().trim().maxLength(32).nullable().optional(),
  })
)

/** A template preview's first call: the chat start fields that make sense without a bot. */
export const templatePreviewStartValidator = vine.compile(
  vine.object({
    message: vine.string().maxLength(10_000).optional(),
    prefilledVariables: vine.record(vine.any()).optional(),
    textBubbleContentFormat: vine.enum(['richText', 'markdown'] as const).optional(),
  })
)

/** POST a named version of a bot's history (docs/workflows.md "History"). */
export const namedBotVersionValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(VERSION_NAME_MAX_LENGTH),
  })
)

/** Import of several exported bots (multipart, `files`): the folder they go in. */
export const importBotSetValidator = vine.compile(
  vine.object({
    folderId: vine.string().trim().maxLength(32).nullable().optional(),
  })
)

/** A folder's sharing, replaced whole by the Share dialog (docs/folder_sharing.md). */
export const folderSharingValidator = vine.compile(
  vine.object({
    isRestricted: vine.boolean(),
    shares: vine
      .array(
        vine.object({
          userId: vine.string().trim().maxLength(32),
          access: vine.enum(FOLDER_ACCESS_LEVELS),
        })
      )
      .maxLength(500),
  })
)
