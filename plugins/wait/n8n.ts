import type { N8nConverter } from '#sdk/n8n'

const UNITS = ['seconds', 'minutes', 'hours', 'days']

/**
 * n8n's Wait: after an interval, at a time, or until its resume URL is called (n8n's form
 * resume has no counterpart). n8n's defaults differ by version: 1 hour before 1.1, 1
 * second in later versions; both are kept as read.
 */
export const fromN8n: N8nConverter = (node, tools) => {
  const p = node.parameters ?? {}
  const resume = String(p.resume ?? 'timeInterval')
  if (resume === 'specificTime') {
    return {
      options: { resume: 'specificTime', dateTime: tools.text(p.dateTime ?? '') },
      passesInput: true,
    }
  }
  if (resume === 'webhook' || resume === 'form') {
    if (resume === 'form') tools.lost('the form (the run resumes on a call of its URL)')
    if (p.limitWakeUpTime || p.limitWaitTime) tools.lost('the time limit of the wait')
    return { options: { resume: 'webhook' }, passesInput: true }
  }
  const modern = (node.typeVersion ?? 1) >= 1.1
  const unit = String(p.unit ?? (modern ? 'seconds' : 'hours'))
  if (!UNITS.includes(unit)) tools.lost(`the unit ${unit}`)
  const amount = p.amount ?? (modern ? 5 : 1)
  const text = tools.text(amount)
  return {
    options: {
      resume: 'interval',
      amount: Number.isFinite(Number(text)) && text !== '' ? Number(text) : text,
      unit: UNITS.includes(unit) ? unit : 'minutes',
    },
    passesInput: true,
  }
}
