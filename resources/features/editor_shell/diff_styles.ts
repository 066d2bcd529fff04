import type { ChangeKind } from '#shared/history/diff'

/**
 * How a comparison canvas marks what changed between two versions, in both editors:
 * added in green, changed in amber, removed in red (and faded).
 */
export const DIFF_ITEM_CLASSES: Record<ChangeKind, string> = {
  added: 'ring-4 ring-emerald-500/70',
  removed: 'ring-4 ring-red-500/70 opacity-60',
  changed: 'ring-4 ring-amber-500/70',
}

/** Edges: React Flow puts the class on the edge's group; `diff-*` names the change for tests. */
export const DIFF_EDGE_CLASSES: Record<ChangeKind, string> = {
  added: 'diff-added [&_path]:!stroke-emerald-500 [&_path]:!stroke-[3px]',
  removed: 'diff-removed [&_path]:!stroke-red-500 [&_path]:![stroke-dasharray:6_4]',
  changed: 'diff-changed [&_path]:!stroke-amber-500 [&_path]:!stroke-[3px]',
}
