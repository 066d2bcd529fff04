import type { WorkflowBlock } from '#shared/workflow/types'
import { newNode } from './workflow_editing'
import type { WorkflowEditorPlugin } from './types'

/* The room a node takes when the palette places it (a node is 240 px wide). */
const NODE_STEP_X = 300
const NODE_STEP_Y = 140

/**
 * Where a node added without a drop point goes: right of the open node (or of the last
 * one added), else the given point; moved down until it covers no other node.
 */
export function placeNewNode(
  blocks: readonly WorkflowBlock[],
  fallback: { x: number; y: number },
  afterId?: string | null
) {
  const after = blocks.find((block) => block.id === afterId) ?? blocks[blocks.length - 1]
  let spot = after
    ? { x: after.graphCoordinates.x + NODE_STEP_X, y: after.graphCoordinates.y }
    : fallback
  for (let tries = 0; tries < 50; tries++) {
    const covered = blocks.some(
      (block) =>
        Math.abs(block.graphCoordinates.x - spot.x) < NODE_STEP_X - 40 &&
        Math.abs(block.graphCoordinates.y - spot.y) < NODE_STEP_Y - 20
    )
    if (!covered) return spot
    spot = { x: spot.x, y: spot.y + NODE_STEP_Y }
  }
  return spot
}

/** A fresh node of a plugin at a position, with the plugin's defaults and branches. */
export function nodeFromPlugin(plugin: WorkflowEditorPlugin, position: { x: number; y: number }) {
  return newNode(plugin.id, position, {
    options: plugin.defaults,
    conditions: plugin.defaultConditions,
  })
}
