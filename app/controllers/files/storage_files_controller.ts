import type { HttpContext } from '@adonisjs/core/http'
import {
  STORAGE_SIGNATURE_PURPOSE,
  safeKey,
  serveFile,
  visibilityOf,
  workspaceOfKey,
} from '#services/storage'
import { membershipOf } from '#services/workspace_access'

function decodeSegment(segment: string) {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * GET /storage/{key}: stored files (app/services/storage.ts). Public keys are served to
 * anyone. A private key needs a valid, unexpired signature or a signed-in member of the
 * key's workspace; anyone else gets 403 (docs/security.md, "Storage").
 */
export default class StorageFilesController {
  async show({ params, request, response, auth }: HttpContext) {
    let key: string
    try {
      key = safeKey((params['*'] as string[]).map(decodeSegment).join('/'))
    } catch {
      return response.notFound('Not found')
    }

    const isPrivate = visibilityOf(key) === 'private'
    if (isPrivate) {
      response.header('cache-control', 'private, no-store')
      // The signed link must not leave through the Referer of whatever the file links to.
      response.header('referrer-policy', 'no-referrer')
      if (
        !(await this.mayReadPrivate(
          key,
          request.hasValidSignature(STORAGE_SIGNATURE_PURPOSE),
          auth.user?.id
        ))
      ) {
        return response.forbidden('This file is private')
      }
    }

    const served = await serveFile(key)
    if (served.kind === 'missing') return response.notFound('Not found')
    if (served.kind === 'redirect') {
      if (!isPrivate) response.header('cache-control', `public, max-age=${served.maxAgeSeconds}`)
      return response.redirect(served.url)
    }
    response.header('content-type', served.contentType)
    response.header('content-length', String(served.length))
    if (served.disposition) response.header('content-disposition', served.disposition)
    // Stored files never run as script here, whatever their bytes say.
    response.header('x-content-type-options', 'nosniff')
    return response.stream(served.stream)
  }

  private async mayReadPrivate(key: string, signed: boolean, userId: string | undefined) {
    if (signed) return true
    const workspaceId = workspaceOfKey(key)
    if (!userId || !workspaceId) return false
    return (await membershipOf(userId, workspaceId)) !== null
  }
}
