import type ThemeTemplate from '#models/theme_template'

export function toThemeTemplateDto(template: ThemeTemplate) {
  return {
    id: template.id,
    name: template.name,
    theme: template.theme,
    workspaceId: template.workspaceId,
    createdAt: template.createdAt.toISO()!,
    updatedAt: template.updatedAt.toISO()!,
  }
}

export type ThemeTemplateDto = ReturnType<typeof toThemeTemplateDto>
