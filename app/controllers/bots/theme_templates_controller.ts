import type { HttpContext } from '@adonisjs/core/http'
import { CreateThemeTemplate } from '#actions/theme_templates/create_theme_template'
import { DeleteThemeTemplate } from '#actions/theme_templates/delete_theme_template'
import { ListThemeTemplates } from '#actions/theme_templates/list_theme_templates'
import { UpdateThemeTemplate } from '#actions/theme_templates/update_theme_template'
import { toThemeTemplateDto } from '#dtos/theme_template_dto'
import {
  createThemeTemplateValidator,
  updateThemeTemplateValidator,
} from '#validators/theme_template'

/** JSON for the Theme tab's "My templates" (session + XSRF). */
export default class ThemeTemplatesController {
  async index({ auth, params, response }: HttpContext) {
    const templates = await new ListThemeTemplates().handle(auth.user!, params.workspaceId)
    return response.ok({ themeTemplates: templates.map(toThemeTemplateDto) })
  }

  async store({ auth, params, request, response }: HttpContext) {
    const payload = await request.validateUsing(createThemeTemplateValidator)
    const template = await new CreateThemeTemplate().handle(auth.user!, params.workspaceId, payload)
    return response.created({ themeTemplate: toThemeTemplateDto(template) })
  }

  async update({ auth, params, request, response }: HttpContext) {
    const patch = await request.validateUsing(updateThemeTemplateValidator)
    const template = await new UpdateThemeTemplate().handle(auth.user!, params.id, patch)
    return response.ok({ themeTemplate: toThemeTemplateDto(template) })
  }

  async destroy({ auth, params, response }: HttpContext) {
    await new DeleteThemeTemplate().handle(auth.user!, params.id)
    return response.noContent()
  }
}
