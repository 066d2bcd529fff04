import type { N8nConverter, N8nImportTools, N8nNode } from '#sdk/n8n'

/**
 * n8n's item helpers over our single input: a Code node's items are the node input, and
 * `$('Node')` reads that node's output. What the code returns is unwrapped from n8n's
 * `{json}` items: one item gives its data, several a list.
 */
const PRELUDE = `const __item = (data) => ({ json: data, first: () => ({ json: data }), last: () => ({ json: data }), all: () => [{ json: data }], item: { json: data } })
const $input = __item(input)
const items = [{ json: input }]
const __unwrap = (value) => (value && typeof value === 'object' && !Array.isArray(value) && 'json' in value ? value.json : value)
const __output = await (async () => {
`
const POSTLUDE = `
})()
if (Array.isArray(__output)) {
  const list = __output.map(__unwrap)
  return list.length === 1 ? list[0] : list
}
return __unwrap(__output)`

/** `$('Node')` left after translation (`.all()`, `.itemMatching()`...): read through __item. */
function withNodeHelpers(code: string) {
  return code.replace(
    /\$\(\s*("[^"]+"|'[^']+')\s*\)/g,
    (_, name: string) => `__item($node[${JSON.stringify(name.slice(1, -1))}])`
  )
}

function fromCode(node: N8nNode, tools: N8nImportTools) {
  const p = node.parameters ?? {}
  if (p.language && p.language !== 'javaScript') {
    throw new Error(`${p.language} code has no counterpart (JavaScript only)`)
  }
  const source = String(p.jsCode ?? p.functionCode ?? p.functionItemCode ?? '')
  const body = withNodeHelpers(tools.js(source))
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n')
  return { options: { content: `${PRELUDE}${body}${POSTLUDE}` } }
}

const TYPED: Record<string, (code: string) => string> = {
  number: (code) => `Number(${code})`,
  boolean: (code) => `(${code} === true || ${code} === 'true')`,
  array: (code) => `(typeof ${code} === 'string' ? JSON.parse(${code}) : ${code})`,
  object: (code) => `(typeof ${code} === 'string' ? JSON.parse(${code}) : ${code})`,
}

/** Set's fields, whatever the version: [{name, value, type}]. */
function fieldsOf(p: Record<string, any>) {
  if (Array.isArray(p.assignments?.assignments)) {
    return p.assignments.assignments.map((a: any) => ({
      name: a.name,
      value: a.value,
      type: a.type,
    }))
  }
  if (Array.isArray(p.fields?.values)) {
    return p.fields.values.map((field: any) => {
      const type = String(field.type ?? 'stringValue').replace(/Value$/, '')
      return { name: field.name, value: field[`${type}Value`] ?? field.stringValue, type }
    })
  }
  const list: { name: string; value: unknown; type: string }[] = []
  for (const type of ['string', 'number', 'boolean']) {
    for (const field of p.values?.[type] ?? [])
      list.push({ name: field.name, value: field.value, type })
  }
  return list
}

/**
 * n8n's Set / Edit Fields as a script returning the item with its fields set. Version 3.3
 * and later keep the other fields only when asked (`includeOtherFields`), earlier versions
 * unless asked not to (`keepOnlySet`, `include: none`). Dotted names set nested fields.
 */
function fromSet(node: N8nNode, tools: N8nImportTools) {
  const p = node.parameters ?? {}
  if (p.mode === 'raw') {
    return { options: { content: `return ${tools.jsValue(p.jsonOutput ?? '{}')}` } }
  }
  const version = node.typeVersion ?? 1
  const keep =
    version >= 3.3
      ? p.includeOtherFields === true
      : version >= 3
        ? (p.include ?? 'all') !== 'none'
        : p.keepOnlySet !== true
  if (p.include === 'selected' || p.include === 'except')
    tools.lost(`the "${p.include}" fields choice`)
  const dotted = (p.options?.dotNotation ?? true) !== false
  const lines = [
    `const fields = ${keep ? "input && typeof input === 'object' && !Array.isArray(input) ? JSON.parse(JSON.stringify(input)) : {}" : '{}'}`,
  ]
  for (const field of fieldsOf(p)) {
    if (!field.name) continue
    const value = (TYPED[field.type] ?? ((code: string) => code))(tools.jsValue(field.value))
    const path = dotted ? String(field.name).split('.') : [String(field.name)]
    const last = JSON.stringify(path.pop())
    const target = path.reduce(
      (object, key) => `(${object}[${JSON.stringify(key)}] ??= {})`,
      'fields'
    )
    lines.push(`${target}[${last}] = ${value}`)
  }
  lines.push('return fields')
  // Semicolons: a line starting with `(` would call the line before it.
  return { options: { content: lines.map((line) => `${line};`).join('\n') } }
}

/**
 * n8n's Merge over our join: the node runs once both inputs are there and reads each of
 * them from its node. Appending gives a list; combining by position (or every
 * combination) one object; choosing a branch that branch's data. Matching by fields or SQL
 * has no counterpart.
 */
function fromMerge(node: N8nNode, tools: N8nImportTools) {
  const p = node.parameters ?? {}
  const mode = String(p.mode ?? 'append')
  const sides = [0, 1].map((index) => tools.inputs[index] ?? [])
  const read = (side: string[]) =>
    side.length === 0 ? 'undefined' : side.map((code) => `(${code})`).join(' ?? ')
  const [a, b] = sides.map(read)
  const combine = `({ ...(${a} ?? {}), ...(${b} ?? {}) })`
  const which = (key: unknown) => (String(key ?? 'input1').endsWith('2') || key === 2 ? b : a)
  let code: string
  switch (mode) {
    case 'append':
      code = `[${a}, ${b}].flatMap((side) => (side === undefined ? [] : Array.isArray(side) ? side : [side]))`
      tools.lost('n8n items (the appended inputs are one list here)')
      break
    case 'combineByPosition':
    case 'mergeByIndex':
    case 'multiplex':
      code = combine
      break
    case 'combine':
      if (p.combineBy === 'combineByFields' || p.combineBy === undefined) {
        throw new Error('combining by matching fields has no counterpart')
      }
      code = combine
      break
    case 'chooseBranch':
      code =
        p.chooseBranchMode === 'waitForAll' && p.output === 'empty'
          ? '{}'
          : which(p.useDataOfInput ?? p.output)
      break
    case 'passThrough':
      code = which(p.output)
      break
    case 'wait':
      code = '{}'
      break
    default:
      throw new Error(`the merge mode "${mode}" has no counterpart`)
  }
  return { options: { content: `return ${code}` } }
}

export const fromN8n: N8nConverter = (node, tools) => {
  if (node.type.endsWith('.set')) return fromSet(node, tools)
  if (node.type.endsWith('.merge')) return fromMerge(node, tools)
  return fromCode(node, tools)
}
