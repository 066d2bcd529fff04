import type { RunnerSandbox } from '../runner_types.js'
import type { ToolSchema } from './types.js'
import { AI_ERRORS } from './errors.js'

/**
 * Function tools of chat completions: their JSON schema for the provider, and
 * their code run in the sandbox (10 s, 32 MB) when the model calls them. Server only.
 */
export interface StoredToolParameter {
  name?: string
  type?: 'string' | 'number' | 'boolean' | 'enum'
  values?: ({ value?: string } | string)[]
  description?: string
  required?: boolean
}

export interface StoredFunctionTool {
  type?: 'function'
  name?: string
  description?: string
  parameters?: StoredToolParameter[]
  code?: string
}

// The schema the SDK declares (`@flowcraft/sdk/ai`).
export type { ToolSchema }

function enumValuesOf(parameter: StoredToolParameter): string[] {
  return (parameter.values ?? [])
    .map((entry) => (typeof entry === 'string' ? entry : (entry.value ?? '')))
    .filter((value) => value.trim() !== '')
}

/**
 * The schema of one tool. Nameless parameters and enum parameters without values are
 * skipped.
 */
export function toolSchema(tool: StoredFunctionTool): ToolSchema | undefined {
  const name = tool.name?.trim()
  if (!name) return undefined
  const properties: ToolSchema['parameters']['properties'] = {}
  const required: string[] = []
  for (const parameter of tool.parameters ?? []) {
    const parameterName = parameter.name?.trim()
    if (!parameterName) continue
    const type = parameter.type ?? 'string'
    const schema: Record<string, unknown> =
      type === 'enum' ? { type: 'string', enum: enumValuesOf(parameter) } : { type }
    if (type === 'enum' && (schema.enum as string[]).length === 0) continue
    if (parameter.description) schema.description = parameter.description
    properties[parameterName] = schema
    if (parameter.required !== false) required.push(parameterName)
  }
  return {
    name,
    description: tool.description || undefined,
    parameters: { type: 'object', properties, required },
  }
}

export function toolSchemas(tools: readonly StoredFunctionTool[] | undefined): ToolSchema[] {
  return (tools ?? []).map(toolSchema).filter((schema): schema is ToolSchema => !!schema)
}

/** Tool schemas in the OpenAI-compatible `tools` request field (undefined for none). */
export function openAiToolsOf(schemas: readonly ToolSchema[]) {
  return schemas.length > 0
    ? schemas.map((schema) => ({ type: 'function' as const, function: schema }))
    : undefined
}

/** The function tools in the OpenAI-compatible `tools` request field. */
export function openAiTools(tools: readonly StoredFunctionTool[] | undefined) {
  return openAiToolsOf(toolSchemas(tools))
}

export function formatToolOutput(value: unknown): string {
  if (value === undefined || value === null) return ''
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * Runs a tool's code with the model's arguments as variables. A missing tool or missing
 * code is an error of the block; an error of the code itself goes back to the model as
 * text (its name and message), so it can recover.
 */
export async function executeFunctionTool(
  sandbox: RunnerSandbox | undefined,
  tools: readonly StoredFunctionTool[] | undefined,
  name: string,
  rawArguments: string | Record<string, unknown> | undefined
): Promise<string> {
  const tool = (tools ?? []).find((candidate) => candidate.name?.trim() === name)
  if (!tool?.code?.trim()) throw new Error(AI_ERRORS.functionCodeUndefined)
  if (!sandbox) throw new Error('The sandbox is not available')
  let args: Record<string, unknown> = {}
  if (typeof rawArguments === 'string' && rawArguments.trim()) {
    try {
      args = JSON.parse(rawArguments)
    } catch {
      return `Error: the arguments are not valid JSON: ${rawArguments}`
    }
  } else if (rawArguments && typeof rawArguments === 'object') {
    args = rawArguments
  }
  try {
    return formatToolOutput(await sandbox.run(tool.code, args))
  } catch (error) {
    // The sandbox's message already starts with the error's name ("TypeError: ...").
    return (error as Error).message
  }
}
