import vine from '@vinejs/vine'
import { VERSION_NAME_MAX_LENGTH } from '#shared/history/types'

/* The content is checked by validateWorkflow (app/shared/workflow/validate.ts). */
const anyValue = () => vine.any().nullable().optional()

/** PATCH a workflow: any subset; the content is then checked against the workflow format. */
export const updateWorkflowValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(255).optional(),
    description: vine.string().trim().maxLength(10000).nullable().optional(),
    icon: vine.string().trim().maxLength(1024).nullable().optional(),
    blocks: vine.array(anyValue()).optional(),
    edges: vine.array(anyValue()).optional(),
    variables: vine.array(anyValue()).optional(),
    settings: vine.record(anyValue()).optional(),
    updatedBy: vine.enum(['user', 'assistant']).optional(),
    isArchived: vine.boolean().optional(),
    /** The draft revision the editor loaded (docs/editor.md "Saving from two places"). */
    revision: vine.number().withoutDecimals().min(0).optional(),
  })
)

export const createWorkflowValidator = vine.compile(
  vine.object({
    name: vine.string().trim().maxLength(255).optional(),
  })
)

/** POST a named version of the history (docs/workflows.md "History"). */
export const namedVersionValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(VERSION_NAME_MAX_LENGTH),
  })
)

/** POST a test run of the draft (docs/workflows.md "Test runs"). */
export const testRunValidator = vine.compile(
  vine.object({
    input: anyValue(),
    nodeId: vine.string().trim().minLength(1).maxLength(255).optional(),
    usePinned: vine.boolean().optional(),
  })
)
