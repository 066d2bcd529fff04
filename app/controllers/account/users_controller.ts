import type { HttpContext } from '@adonisjs/core/http'
import AppError from '#exceptions/app_error'
import { toUserDto } from '#dtos/user_dto'
import { putFile } from '#services/storage'
import { newId } from '#services/ids'
import { tourStatusValidator, updatePhotoValidator, updateUserValidator } from '#validators/user'

export default class UsersController {
  /** PATCH /api/users/{id}: partial update of the signed-in user (the browser debounces 1000 ms). */
  async update({ auth, params, request, response }: HttpContext) {
    const user = auth.user!
    if (params.id !== user.id) throw AppError.forbidden('You can only update your own account.')
    if (request.input('email') !== undefined && request.input('email') !== user.email) {
      throw new AppError('E-mail cannot be changed', {
        status: 422,
        description: 'Please contact support to change your e-mail address.',
        field: 'email',
      })
    }
    const payload = await request.validateUsing(updateUserValidator)
    user.merge(payload)
    await user.save()
    return response.ok({ user: toUserDto(user) })
  }

  /** Profile photo: .jpg, .jpeg or .png, at most 1 MB (messages in resources/lang). */
  async updatePhoto({ auth, request, response, session }: HttpContext) {
    const user = auth.user!
    const { photo } = await request.validateUsing(updatePhotoValidator)
    const key = `avatars/${user.id}-${newId()}.${photo.extname}`
    user.image = await putFile(key, { fromPath: photo.tmpPath! })
    await user.save()
    session.flash('toast', { type: 'success', title: 'Photo updated' })
    return response.redirect().withQs().back()
  }

  async removePhoto({ auth, response }: HttpContext) {
    const user = auth.user!
    user.image = null
    await user.save()
    return response.redirect().withQs().back()
  }

  /** POST /api/updateTourStatus with one completion flag set to true. */
  async updateTourStatus({ auth, request, response }: HttpContext) {
    const user = auth.user!
    const flags = await request.validateUsing(tourStatusValidator)
    user.tourStatus = { ...(user.tourStatus ?? {}), ...flags }
    await user.save()
    return response.ok({ tourStatus: user.tourStatus })
  }
}
