/**
 * A field of a placed block whose value its plugin's validator refuses (required and
 * empty, out of bounds, not one of the choices...). Saves return them, the editors show
 * them beside the field and on the block; publishing and runs refuse while any remain.
 */
export interface BlockIssue {
  blockId: string
  blockType: string
  /** Path of the field in the block's options ('url', 'steps.0.name'), or 'items.0.content'. */
  field: string
  /** Names the field by its label: 'URL is required'. */
  message: string
}

/** Issues grouped by block id, for the canvas and the open form. */
export function issuesByBlock(issues: readonly BlockIssue[]): Record<string, BlockIssue[]> {
  const grouped: Record<string, BlockIssue[]> = {}
  for (const issue of issues) (grouped[issue.blockId] ??= []).push(issue)
  return grouped
}
