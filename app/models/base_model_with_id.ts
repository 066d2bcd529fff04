import { BaseModel, beforeCreate } from '@adonisjs/lucid/orm'
import { newId } from '#services/ids'

/**
 * Base for models whose primary key is a generated string id.
 */
export default class BaseModelWithId extends BaseModel {
  static selfAssignPrimaryKey = true

  declare id: string

  @beforeCreate()
  static assignId(model: BaseModelWithId) {
    if (!model.id) model.id = newId()
  }
}
