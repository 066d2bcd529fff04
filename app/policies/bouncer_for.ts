import { Bouncer } from '@adonisjs/bouncer'
import type User from '#models/user'
import AppError from '#exceptions/app_error'
import * as abilities from '#abilities/main'
import { policies } from '#policies/main'

/**
 * The Bouncer of a user outside a request (actions, queue workers, commands): the same
 * abilities and policies as `ctx.bouncer`, so an action decides access as its controller does.
 */
export function bouncerFor(user: User) {
  return new Bouncer(user, abilities, policies)
}

/**
 * A policy's refusal as the app's own error (what API clients and pages already get): the
 * policy says whether the thing is hidden (404) or only read-only (403), and in which words.
 */
export function refusal(answer: { message?: string; status?: number }) {
  const message = answer.message ?? 'Forbidden'
  return answer.status === 404 ? AppError.notFound(message) : AppError.forbidden(message)
}
