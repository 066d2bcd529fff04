import type { HttpContext } from '@adonisjs/core/http'
import { readFile } from 'node:fs/promises'
import AppError from '#exceptions/app_error'
import { resolveCurrentWorkspace } from '#services/current_workspace'
import { findFolderIn } from '#actions/folders/folders'
import { ImportBotSet, type UploadedFile } from '#actions/bots/import_bot_set'
import { importBotSetValidator } from '#validators/bot'
import type { ImportedBotReport } from '#shared/bot/import_report'

/** "Import from Typebot": many exported bots at once (docs/migrating-from-typebot.md). */
export default class TypebotImportController {
  async show({ inertia }: HttpContext) {
    return inertia.render('bots/typebot_import', {})
  }

  /** POST /api/bots/import-set (multipart `files`: .json files and .zip archives). */
  async store(ctx: HttpContext) {
    const current = await resolveCurrentWorkspace(ctx, ctx.auth.user!)
    if (!current) throw AppError.notFound('Workspace not found')
    if (await ctx.bouncer.denies('authorIn', current))
      throw AppError.forbidden('Guests cannot change bots.')
    const { folderId } = await ctx.request.validateUsing(importBotSetValidator)
    if (folderId)
      await findFolderIn(current.workspace.id, folderId, { user: ctx.auth.user!, need: 'edit' })

    const files = ctx.request.files('files', { size: '20mb', extnames: ['json', 'zip'] })
    if (files.length === 0) {
      throw new AppError('Choose the files to import', { status: 422, field: 'files' })
    }
    const uploads: UploadedFile[] = []
    const rejected: ImportedBotReport[] = []
    for (const file of files) {
      if (!file.isValid || !file.tmpPath) {
        const error = file.errors[0]?.message ?? 'The file could not be read'
        rejected.push({ file: file.clientName, status: 'failed', error, notCarried: [] })
        continue
      }
      uploads.push({ name: file.clientName, bytes: await readFile(file.tmpPath) })
    }
    const report = await new ImportBotSet().handle(ctx.auth.user!, current.workspace, uploads, {
      folderId,
    })
    return { bots: [...rejected, ...report.bots] }
  }
}
