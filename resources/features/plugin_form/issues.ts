import type { BlockIssue } from '#shared/block_issues'
import type { FormErrors } from './types'

const NONE: FormErrors = {}

/**
 * A block's issues as the form's errors: each message under the field its path names.
 * With `under` ('items.2'), only that part's issues, with paths relative to it (the form
 * of one item).
 */
export function formErrorsOf(issues: readonly BlockIssue[] | undefined, under?: string) {
  if (!issues?.length) return NONE
  const errors: FormErrors = {}
  const prefix = under ? `${under}.` : ''
  for (const issue of issues) {
    if (!issue.field.startsWith(prefix)) continue
    const path = issue.field.slice(prefix.length)
    // Item issues belong to the items' own forms, not the block's.
    if (!under && /^items(\.|$)/.test(path)) continue
    errors[path] ??= issue.message
  }
  return errors
}
