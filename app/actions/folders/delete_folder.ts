import db from '@adonisjs/lucid/services/db'
import Bot from '#models/bot'
import Folder from '#models/folder'

export class DeleteFolder {
  /** Its bots and sub-folders move to the dashboard (the top level); nothing is deleted with it. */
  async handle(folder: Folder) {
    await db.transaction(async (trx) => {
      await Bot.query({ client: trx }).where('folder_id', folder.id).update({ folder_id: null })
      await Folder.query({ client: trx })
        .where('parent_folder_id', folder.id)
        .update({ parent_folder_id: null })
      await folder.useTransaction(trx).delete()
    })
  }
}
