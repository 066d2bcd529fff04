import { Bouncer } from '@adonisjs/bouncer'
import type User from '#models/user'
import { isAdminEmail } from '#services/admins'

/** Instance admins (ADMIN_EMAILS) reach /admin pages. */
export const accessAdmin = Bouncer.ability((user: User) => isAdminEmail(user.email))
