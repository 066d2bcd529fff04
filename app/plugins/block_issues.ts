import { errors } from '@vinejs/vine'
import AppError from '#exceptions/app_error'
import { itemsValidatorFor, validatorFor } from './derive.js'
import { forSurface, storedOptionsOf, type PluginSurface } from './define_plugin.js'
import type { AnyPlugin, PluginRegistry } from './registry.js'
import type { BlockIssue } from '#shared/block_issues'

/*
| The options of placed blocks checked with the validator derived from their plugin's
| fields (docs/plugins.md, "Validation"). Saves keep a draft with issues and return them;
| publishing and runs refuse a block with issues. Runners therefore receive options whose
| required fields are filled and whose types, enums and bounds hold; what depends on the
| variables' values is still theirs to check.
*/

/** A placed block or node as stored: options (or content) and, for some, items. */
export interface StoredBlock {
  id: string
  type: string
  options?: unknown
  content?: unknown
  items?: unknown
}

type Compiled = {
  options: ReturnType<typeof validatorFor>
  items?: ReturnType<typeof itemsValidatorFor>
}

// Compiling a validator costs far more than running it; plugins do not change at runtime.
const compiled = new WeakMap<AnyPlugin, Map<PluginSurface | 'any', Compiled>>()

/**
 * The validators of the plugin as one surface sees it: fields kept to the other surface
 * (a bot-only field of a folded plugin, say) are neither required nor checked there.
 */
function validatorsOf(plugin: AnyPlugin, surface?: PluginSurface): Compiled {
  let bySurface = compiled.get(plugin)
  if (!bySurface) compiled.set(plugin, (bySurface = new Map()))
  let entry = bySurface.get(surface ?? 'any')
  if (!entry) {
    const view = surface ? forSurface(plugin, surface) : plugin
    entry = {
      options: validatorFor(view, { mode: 'run' }),
      items: view.items ? itemsValidatorFor(view, { mode: 'run' }) : undefined,
    }
    bySurface.set(surface ?? 'any', entry)
  }
  return entry
}

async function failures(
  run: () => Promise<unknown>
): Promise<{ field: string; message: string }[]> {
  try {
    await run()
    return []
  } catch (error) {
    if (error instanceof errors.E_VALIDATION_ERROR) {
      return (error.messages as { field: string; message: string }[]).map((entry) => ({
        field: entry.field,
        message: entry.message,
      }))
    }
    throw error
  }
}

/** The issues of one block; none for a type the registry does not know (checked apart). */
export async function issuesOfBlock(
  plugin: AnyPlugin,
  block: StoredBlock,
  surface?: PluginSurface
): Promise<BlockIssue[]> {
  const validators = validatorsOf(plugin, surface)
  const stored = plugin.storedIn === 'content' ? block.content : block.options
  let value = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>
  // A block stored under a folded plugin's former id is read as the engines read it.
  if (surface && plugin.storedIn !== 'content') {
    value = storedOptionsOf(plugin, block.type, value, surface)
  }
  const found = await failures(() => validators.options.validate(value))
  if (validators.items && Array.isArray(block.items)) {
    found.push(...(await failures(() => validators.items!.validate({ items: block.items }))))
  }
  return found.map((failure) => ({ blockId: block.id, blockType: block.type, ...failure }))
}

/** The issues of every block, in order. */
export async function issuesOfBlocks(
  registry: PluginRegistry,
  blocks: Iterable<StoredBlock>,
  surface?: PluginSurface
): Promise<BlockIssue[]> {
  const issues: BlockIssue[] = []
  for (const block of blocks) {
    const plugin = registry.get(block.type)
    if (plugin) issues.push(...(await issuesOfBlock(plugin, block, surface)))
  }
  return issues
}

/**
 * Refuses a publish or a run while blocks have issues, naming the first block and field:
 * 'Fix the blocks before publishing: HTTP request in "Group #1": URL is required'.
 * `nameOf` gives the block's name as the builder sees it.
 */
export function assertNoIssues(
  issues: BlockIssue[],
  doing: 'publishing' | 'running',
  nameOf: (issue: BlockIssue) => string
) {
  if (issues.length === 0) return
  const first = issues[0]
  const more = issues.length > 1 ? ` (${issues.length - 1} more)` : ''
  throw new AppError(`Fix the blocks before ${doing}`, {
    status: 422,
    code: 'E_BLOCK_ISSUES',
    description: `${nameOf(first)}: ${first.message}${more}`,
    issues,
  })
}
