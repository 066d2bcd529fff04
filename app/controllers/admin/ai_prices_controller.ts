import type { HttpContext } from '@adonisjs/core/http'
import AiModelPrice from '#models/ai_model_price'
import User from '#models/user'
import AppError from '#exceptions/app_error'
import {
  DEFAULT_PRICE_MODEL,
  INITIAL_AI_CREDITS,
  createAiPrice,
  deleteAiPrice,
  grantAiCredits,
  listAiPrices,
  updateAiPrice,
} from '#services/ai/credits'
import { aiPriceValidator, grantAiCreditsValidator } from '#validators/ai_credits'

/** Flashed after a grant, so the page can say who has how many credits now. */
const GRANTED = 'aiCreditsGranted'

/**
 * /admin/ai-prices: instance admins (ADMIN_EMAILS) edit the AI price table (tokens per
 * credit, per model) and add credits to users.
 */
export default class AdminAiPricesController {
  async index({ bouncer, inertia, session }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    return inertia.render('admin/ai_prices', {
      prices: await listAiPrices(),
      defaultModel: DEFAULT_PRICE_MODEL,
      initialCredits: INITIAL_AI_CREDITS,
      granted: session.flashMessages.get(GRANTED) ?? null,
    })
  }

  async store({ bouncer, request, response }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    await createAiPrice(await request.validateUsing(aiPriceValidator, { meta: {} }))
    return response.redirect().back()
  }

  async update({ bouncer, params, request, response }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const price = await priceOrFail(params.id)
    const payload = await request.validateUsing(aiPriceValidator, {
      meta: { priceId: price.id },
    })
    await updateAiPrice(price, payload)
    return response.redirect().back()
  }

  async destroy({ bouncer, params, response }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const price = await priceOrFail(params.id)
    if (price.model === DEFAULT_PRICE_MODEL) {
      throw new AppError('The default price cannot be deleted', {
        status: 409,
        description: 'Calls without a priced model are charged with it.',
      })
    }
    await deleteAiPrice(price)
    return response.redirect().back()
  }

  async grant({ bouncer, request, response, session }: HttpContext) {
    await bouncer.authorize('accessAdmin')
    const { email, amount } = await request.validateUsing(grantAiCreditsValidator)
    const user = await User.query().whereRaw('lower(email) = ?', [email]).firstOrFail()
    const credits = await grantAiCredits(user.id, amount)
    session.flash(GRANTED, { email: user.email, amount, credits })
    return response.redirect().back()
  }
}

async function priceOrFail(id: unknown) {
  const price = await AiModelPrice.find(Number(id))
  if (!price) throw AppError.notFound()
  return price
}
