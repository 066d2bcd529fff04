import type { ExecutableWorkflow, WorkflowBlock, WorkflowEdge } from '#shared/workflow/types'
import { findLoopEdges } from '#shared/workflow/loop_edges'

/**
 * The workflow as a graph the executor can ask questions of: which edges leave a node,
 * which edges close a loop, and whether one node can still lead to another.
 *
 * Joins wait for every predecessor that may still arrive. With loops, "may still arrive"
 * would include the node itself, so edges that close a cycle (found by a depth-first walk
 * from the trigger) are left out of that question: what remains is acyclic, and among the
 * waiting nodes there is always one nothing else can reach.
 */
export class WorkflowGraph {
  readonly blocks = new Map<string, WorkflowBlock>()
  readonly blockList: readonly WorkflowBlock[]
  private readonly outgoing = new Map<string, WorkflowEdge[]>()
  private readonly forward = new Map<string, string[]>()
  private readonly reachable = new Map<string, Set<string>>()
  readonly loopEdges: Set<string>
  /** `from>to` of the loop edges: arrivals know the node they came from, not the edge. */
  private readonly loopPairs = new Set<string>()

  constructor(readonly workflow: ExecutableWorkflow) {
    this.blockList = workflow.blocks ?? []
    for (const block of this.blockList) this.blocks.set(block.id, block)
    for (const edge of workflow.edges ?? []) {
      // Attachments plug models and tools into agents: they are not steps of the flow.
      if (edge.isAttachment) continue
      if (!this.blocks.has(edge.from?.blockId) || !this.blocks.has(edge.to?.blockId)) continue
      const list = this.outgoing.get(edge.from.blockId) ?? []
      list.push(edge)
      this.outgoing.set(edge.from.blockId, list)
    }
    const steps = [...this.outgoing.values()].flat()
    this.loopEdges = findLoopEdges(this.blocks.keys(), steps, this.workflow.root_block)
    for (const edges of this.outgoing.values()) {
      for (const edge of edges) {
        if (this.loopEdges.has(edge.id))
          this.loopPairs.add(`${edge.from.blockId}>${edge.to.blockId}`)
      }
    }
    for (const [from, edges] of this.outgoing) {
      this.forward.set(
        from,
        edges.filter((edge) => !this.loopEdges.has(edge.id)).map((edge) => edge.to.blockId)
      )
    }
  }

  get root(): WorkflowBlock | undefined {
    return this.blocks.get(this.workflow.root_block)
  }

  /** Edges taken when the node goes on normally (no branch chosen). */
  defaultEdges(block: WorkflowBlock): WorkflowEdge[] {
    const edges = (this.outgoing.get(block.id) ?? []).filter((edge) => !edge.from.conditionId)
    if (block.outgoingEdgeId && !edges.some((edge) => edge.id === block.outgoingEdgeId)) {
      const own = this.workflow.edges.find(
        (edge) => edge.id === block.outgoingEdgeId && !edge.isAttachment
      )
      if (own && this.blocks.has(own.to?.blockId)) edges.push(own)
    }
    return edges
  }

  /** Edges of one branch of a condition node. */
  branchEdges(block: WorkflowBlock, conditionId: string): WorkflowEdge[] {
    return (this.outgoing.get(block.id) ?? []).filter(
      (edge) => edge.from.conditionId === conditionId
    )
  }

  /** Whether an edge from `from` to `to` goes back to an earlier node (closes a loop). */
  closesLoop(from: string, to: string): boolean {
    return this.loopPairs.has(`${from}>${to}`)
  }

  /** Whether `from` leads to `to` through one edge or more, loops left out. */
  canReach(from: string, to: string): boolean {
    return this.reachableFrom(from).has(to)
  }

  private reachableFrom(start: string): Set<string> {
    const known = this.reachable.get(start)
    if (known) return known
    const seen = new Set<string>()
    const stack = [...(this.forward.get(start) ?? [])]
    while (stack.length > 0) {
      const id = stack.pop()!
      if (seen.has(id)) continue
      seen.add(id)
      stack.push(...(this.forward.get(id) ?? []))
    }
    this.reachable.set(start, seen)
    return seen
  }
}
