import { filterOf, legacyConditionsOf, comparisonOf, type N8nConverter } from '#sdk/n8n'

/** n8n's IF: output 0 (true) is our branch, output 1 (false) our default edge. */
function fromIf(node: Parameters<N8nConverter>[0], tools: Parameters<N8nConverter>[1]) {
  const p = node.parameters ?? {}
  const content =
    (node.typeVersion ?? 1) >= 2
      ? filterOf(p.conditions, tools)
      : legacyConditionsOf(p.conditions, p.combineOperation, tools)
  return { options: {}, conditions: [{ content }], outputs: [0, null], passesInput: true }
}

/**
 * n8n's Switch in rules mode: each rule is a branch, taken in order (n8n's "all matching
 * outputs" option is not kept: the first rule that holds is followed). The fallback output
 * is our default edge.
 */
function fromSwitch(node: Parameters<N8nConverter>[0], tools: Parameters<N8nConverter>[1]) {
  const p = node.parameters ?? {}
  if (p.mode === 'expression') tools.lost('the output index expression (rules mode only)')
  const version = node.typeVersion ?? 1
  const conditions: { content: unknown }[] = []
  if (version >= 3) {
    for (const rule of p.rules?.values ?? [])
      conditions.push({ content: filterOf(rule.conditions, tools) })
    if (p.options?.allMatchingOutputs)
      tools.lost('"send to all matching outputs" (the first one is taken)')
  } else {
    const operation = (rule: any) => String(rule.operation ?? 'equal')
    for (const rule of p.rules?.rules ?? []) {
      const comparison = comparisonOf(p.value1, operation(rule), rule.value2, tools)
      conditions.push({
        content: { comparisons: comparison ? [comparison] : [], logicalOperator: 'AND' },
      })
    }
  }
  const outputs: (number | null)[] = conditions.map((_, index) => index)
  const fallback = version >= 3 ? p.options?.fallbackOutput : p.fallbackOutput
  if (fallback === 'extra') outputs.push(null)
  else if (fallback !== undefined && fallback !== 'none' && fallback !== -1) {
    // A fallback sent to one of the rules' outputs: that output is also the default.
    const index = Number(fallback)
    if (Number.isInteger(index) && index >= 0)
      tools.lost(`the fallback to output ${index} (unmatched items stop)`)
  }
  if (conditions.length === 0)
    conditions.push({ content: { comparisons: [], logicalOperator: 'AND' } })
  return { options: {}, conditions, outputs, passesInput: true }
}

/** n8n's Filter: items that do not hold are dropped, so the run stops there when it fails. */
function fromFilter(node: Parameters<N8nConverter>[0], tools: Parameters<N8nConverter>[1]) {
  const p = node.parameters ?? {}
  const content =
    (node.typeVersion ?? 1) >= 2
      ? filterOf(p.conditions, tools)
      : legacyConditionsOf(p.conditions, p.combineConditions === 'OR' ? 'any' : 'all', tools)
  return { options: {}, conditions: [{ content }], outputs: [0], passesInput: true }
}

export const fromN8n: N8nConverter = (node, tools) => {
  if (node.type.endsWith('.switch')) return fromSwitch(node, tools)
  if (node.type.endsWith('.filter')) return fromFilter(node, tools)
  return fromIf(node, tools)
}
