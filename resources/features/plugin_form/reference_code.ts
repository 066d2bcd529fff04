/**
 * A reference as a script reads it. Code fields that read variables by name (a Script
 * node) are not substituted, so `{{$input.total}}` would stay text there; the sandbox
 * (plugins/code/runner.ts) gives the script `input`, `$node["Title"]` and `$trigger`
 * instead, and a key dropped or picked into such a field becomes that code.
 */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** `.body.items[0].content-type` as JavaScript: `.body.items[0]["content-type"]`. */
function codePath(path: string): string | undefined {
  let code = ''
  let rest = path
  while (rest) {
    const step = rest.match(/^\.([^.[\]]+)|^\[(\d+)\]/)
    if (!step) return undefined
    if (step[2] !== undefined) code += `[${step[2]}]`
    else code += IDENTIFIER.test(step[1]) ? `.${step[1]}` : `[${JSON.stringify(step[1])}]`
    rest = rest.slice(step[0].length)
  }
  return code
}

/**
 * `{{$input.a}}` → `input.a`, `{{$trigger.a}}` → `$trigger.a`, `{{$node["T"].a}}` →
 * `$node["T"].a`; undefined for any other text (a variable, text around a reference).
 */
export function referenceAsCode(expression: string): string | undefined {
  const inner = expression.trim().match(/^\{\{\s*(\$[\s\S]*?)\s*\}\}$/)?.[1]
  if (!inner) return undefined
  const simple = inner.match(/^\$(input|trigger)((?:\.|\[)[\s\S]*)?$/)
  if (simple) {
    const path = codePath(simple[2] ?? '')
    if (path === undefined) return undefined
    return `${simple[1] === 'input' ? 'input' : '$trigger'}${path}`
  }
  const node =
    inner.match(/^\$node\[\s*"([^"]*)"\s*\]([\s\S]*)$/) ??
    inner.match(/^\$node\[\s*'([^']*)'\s*\]([\s\S]*)$/) ??
    inner.match(/^\$node\.([^.[]+)([\s\S]*)$/)
  if (!node) return undefined
  const path = codePath(node[2])
  return path === undefined ? undefined : `$node[${JSON.stringify(node[1].trim())}]${path}`
}

/** The content attribute that marks a code field whose code reads variables by name. */
export const CODE_FIELD_SELECTOR = '[data-variables="names"]'
