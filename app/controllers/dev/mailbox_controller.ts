import type { HttpContext } from '@adonisjs/core/http'
import DevMail from '#models/dev_mail'

/** /dev/mailbox: the mails the app would have sent, newest first (no SMTP, not production). */
export default class MailboxController {
  async index({ inertia, request }: HttpContext) {
    const to = typeof request.qs().to === 'string' ? request.qs().to.toLowerCase() : null
    const query = DevMail.query().orderBy('id', 'desc').limit(100)
    if (to) query.where('to', to)
    const mails = await query
    return inertia.render('dev/mailbox', {
      filter: to,
      mails: mails.map((m) => ({
        id: m.id,
        to: m.to,
        subject: m.subject,
        text: m.text,
        links: Array.from(m.text.matchAll(/https?:\/\/\S+/g)).map((x) => x[0]),
        createdAt: m.createdAt.toISO(),
      })),
    })
  }

  async clear({ response }: HttpContext) {
    await DevMail.query().delete()
    return response.redirect('/dev/mailbox')
  }
}
