import { Exception } from '@adonisjs/core/exceptions'
import type { BlockIssue } from '#shared/block_issues'

/**
 * An expected failure with a message for people: a plan limit, a product rule, a
 * conflict. `title` and `description` are what the toast or the JSON body shows; `field`
 * names the form field the message belongs to.
 */
export default class AppError extends Exception {
  declare title: string
  declare description?: string
  declare field?: string
  /** Blocks whose fields refuse a publish or a run: the editors mark them. */
  declare issues?: BlockIssue[]

  constructor(
    title: string,
    options: {
      status?: number
      code?: string
      description?: string
      field?: string
      issues?: BlockIssue[]
    } = {}
  ) {
    super(options.description ? `${title}: ${options.description}` : title, {
      status: options.status ?? 400,
      code: options.code ?? 'E_APP_ERROR',
    })
    this.title = title
    this.description = options.description
    this.field = options.field
    this.issues = options.issues
  }

  static notFound(what = 'Not found') {
    return new AppError(what, { status: 404, code: 'E_NOT_FOUND' })
  }

  static forbidden(description?: string) {
    return new AppError('Forbidden', { status: 403, code: 'E_FORBIDDEN', description })
  }
}
