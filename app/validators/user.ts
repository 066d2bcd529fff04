import vine from '@vinejs/vine'
import { APPEARANCES, GRAPH_NAVIGATIONS, LANGUAGES } from '#shared/workspace_roles'

/** PATCH /api/users/{id}: a partial user; e-mail is not accepted (it cannot be changed). */
export const updateUserValidator = vine.compile(
  vine.object({
    name: vine.string().trim().maxLength(255).nullable().optional(),
    company: vine.string().trim().maxLength(255).nullable().optional(),
    graphNavigation: vine.enum(GRAPH_NAVIGATIONS).optional(),
    preferredAppAppearance: vine.enum(APPEARANCES).optional(),
    preferredLanguage: vine.enum(LANGUAGES).optional(),
    onboardingCategories: vine.array(vine.string().maxLength(100)).maxLength(50).optional(),
    displayedInAppNotifications: vine.record(vine.boolean()).optional(),
  })
)

export const PHOTO_MAX_BYTES = 1024 * 1024
export const PHOTO_EXTENSIONS = ['jpg', 'jpeg', 'png']

export const updatePhotoValidator = vine.compile(
  vine.object({
    photo: vine.file({ size: PHOTO_MAX_BYTES, extnames: PHOTO_EXTENSIONS }),
  })
)

export const TOUR_FLAGS = [
  'dashboardTourCompleted',
  'botTourCompleted',
  'workflowTourCompleted',
  'vectorTourCompleted',
] as const

export const tourStatusValidator = vine.compile(
  vine.object(Object.fromEntries(TOUR_FLAGS.map((f) => [f, vine.boolean().optional()])))
)
