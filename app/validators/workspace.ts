import vine from '@vinejs/vine'
import { WORKSPACE_ROLES } from '#shared/workspace_roles'

export const createWorkspaceValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(100).optional(),
    icon: vine.string().trim().maxLength(1024).optional(),
  })
)

export const updateWorkspaceValidator = vine.compile(
  vine.object({
    name: vine.string().trim().minLength(1).maxLength(100).optional(),
    icon: vine.string().trim().maxLength(1024).nullable().optional(),
  })
)

export const inviteMemberValidator = vine.compile(
  vine.object({
    email: vine.string().trim().email().maxLength(254),
    role: vine.enum(WORKSPACE_ROLES).optional(),
  })
)

export const updateMemberValidator = vine.compile(
  vine.object({
    role: vine.enum(WORKSPACE_ROLES),
  })
)
