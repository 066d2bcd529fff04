/**
 * The edges that close a loop in a workflow graph: an iterative depth-first walk from the
 * trigger (then from any node not reached yet) finds each edge leading to a node still on
 * the walk's path. The executor leaves them out of its join rule (app/engine/workflow/graph.ts);
 * the editor labels them "loop". Browser-safe.
 */
export interface LoopEdgeInput {
  id: string
  from: { blockId: string }
  to: { blockId: string }
}

export function findLoopEdges(
  nodeIds: Iterable<string>,
  edges: readonly LoopEdgeInput[],
  startId?: string
): Set<string> {
  const outgoing = new Map<string, LoopEdgeInput[]>()
  for (const edge of edges) {
    const list = outgoing.get(edge.from.blockId) ?? []
    list.push(edge)
    outgoing.set(edge.from.blockId, list)
  }
  const loops = new Set<string>()
  const state = new Map<string, 'open' | 'done'>()
  const known = new Set(nodeIds)
  const starts = startId === undefined ? [...known] : [startId, ...known]
  for (const start of starts) {
    if (!known.has(start) || state.has(start)) continue
    const path: { id: string; next: number }[] = [{ id: start, next: 0 }]
    state.set(start, 'open')
    while (path.length > 0) {
      const top = path[path.length - 1]
      const leaving = outgoing.get(top.id) ?? []
      if (top.next >= leaving.length) {
        state.set(top.id, 'done')
        path.pop()
        continue
      }
      const edge = leaving[top.next++]
      const target = edge.to.blockId
      const seen = state.get(target)
      if (seen === 'open') loops.add(edge.id)
      else if (!seen && known.has(target)) {
        state.set(target, 'open')
        path.push({ id: target, next: 0 })
      }
    }
  }
  return loops
}
