import type { HttpContext } from '@adonisjs/core/http'
import * as Y from 'yjs'
import AppError from '#exceptions/app_error'
import {
  joinDraft,
  openDraft,
  receiveUpdate,
  relayPresence,
  writeAndTell,
} from '#actions/coedit/coedit_hub'
import { coeditPresenceValidator, coeditUpdateValidator } from '#validators/coedit'
import { decodeBase64, encodeBase64 } from '#shared/coedit/mirror'
import { COEDIT_KINDS, colorOf, type CoeditKind } from '#shared/coedit/protocol'

function kindOf(value: unknown): CoeditKind {
  const kind = COEDIT_KINDS.find((candidate) => candidate === value)
  if (!kind) throw AppError.notFound()
  return kind
}

/** A Yjs update that does not decode is refused before it reaches anyone's document. */
function decodedUpdate(text: string) {
  const bytes = decodeBase64(text)
  try {
    Y.decodeUpdate(bytes)
  } catch {
    throw new AppError('Invalid update', { status: 422, field: 'update' })
  }
  return bytes
}

/**
 * The shared drafts of the bot and workflow editors (docs/editor.md "Editing together"),
 * with the same access rules as their REST routes; the updates and presence reach the
 * other editors on the draft's transmit channel.
 */
export default class SharedDraftsController {
  /** GET /api/coedit/:kind/:id: the merged state to start from (or catch up with). */
  async show({ auth, params, response }: HttpContext) {
    const opened = await openDraft(auth.user!, kindOf(params.kind), params.id, 'read')
    const state = await joinDraft(opened)
    return response.ok({
      state: encodeBase64(state),
      mode: opened.mode,
      workspaceId: opened.workspaceId,
      color: colorOf(auth.user!.id),
    })
  }

  /**
   * POST /api/coedit/:kind/:id/updates: one editor's changes (writers only). With `write`
   * (sent as the page is left) the merged draft is written before the answer, which then
   * is the write's.
   */
  async update({ auth, params, request, response }: HttpContext) {
    const opened = await openDraft(auth.user!, kindOf(params.kind), params.id, 'write')
    const { clientId, update, write } = await request.validateUsing(coeditUpdateValidator)
    await receiveUpdate(auth.user!, opened, decodedUpdate(update), clientId, 'person')
    if (write) return response.ok(await writeAndTell(opened))
    return response.noContent()
  }

  /**
   * POST /api/coedit/:kind/:id/write: the merged draft written now (an editor's autosave, or
   * before a publish), answered with its revision and issues as a REST save answers.
   */
  async write({ auth, params, response }: HttpContext) {
    const opened = await openDraft(auth.user!, kindOf(params.kind), params.id, 'write')
    return response.ok(await writeAndTell(opened))
  }

  /** POST /api/coedit/:kind/:id/presence: where this editor's person is (viewers too). */
  async presence({ auth, params, request, response }: HttpContext) {
    const kind = kindOf(params.kind)
    await openDraft(auth.user!, kind, params.id, 'read')
    const { clientId, ...state } = await request.validateUsing(coeditPresenceValidator)
    relayPresence(auth.user!, kind, params.id, clientId, state, colorOf(auth.user!.id))
    return response.noContent()
  }
}
