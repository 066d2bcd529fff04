import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ClientSideAction } from '#shared/chat/types'

export type CalBookingOptions = Extract<ClientSideAction, { type: 'calBooking' }>['calBooking']

type CalCall = (...args: unknown[]) => void
interface CalApi extends CalCall {
  q?: unknown[][]
  ns?: Record<string, CalCall & { q?: unknown[][] }>
  loaded?: boolean
}
type CalWindow = Window & { Cal?: CalApi }

const loads = new Map<string, Promise<void>>()

/**
 * Cal.com's embed protocol: a `Cal` function queues its calls until `{origin}/embed/embed.js`
 * loads and takes them over; `Cal('init', namespace, { origin })` gives the namespace its
 * own queued function, which then takes 'inline' (draw the booking page in an element) and
 * 'on' (listen to the widget's events). One script per origin, one namespace per widget.
 */
function calFor(baseUrl: string, namespace: string): CalCall {
  const win = window as CalWindow
  if (!win.Cal) {
    const queued = ((...args: unknown[]) => {
      queued.q!.push(args)
    }) as CalApi
    queued.q = []
    queued.ns = {}
    win.Cal = queued
  }
  const cal = win.Cal
  if (!cal.ns) cal.ns = {}
  if (!cal.ns[namespace]) {
    const forNamespace = ((...args: unknown[]) => {
      forNamespace.q!.push(args)
    }) as CalCall & { q?: unknown[][] }
    forNamespace.q = []
    cal.ns[namespace] = forNamespace
  }
  cal('init', namespace, { origin: baseUrl })
  return (...args: unknown[]) => win.Cal!.ns![namespace](...args)
}

function loadScript(src: string) {
  let pending = loads.get(src)
  if (!pending) {
    pending = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = src
      script.async = true
      script.onload = () => resolve()
      script.onerror = () => {
        loads.delete(src)
        script.remove()
        reject(new Error(`${src} did not load`))
      }
      document.head.appendChild(script)
    })
    loads.set(src, pending)
  }
  return pending
}

let widgets = 0

/**
 * The Cal.com booking widget of a paused chat: loads Cal's embed, draws the booking page
 * prefilled with the bot's values, and calls `onBooked` with the booked date once the
 * visitor books. While it loads the row says so; if it cannot load, the visitor can try
 * again or go on without booking (the editor's preview, whose page loads no third-party
 * script, ends there).
 */
export function CalBooking({
  booking,
  done,
  onBooked,
}: {
  booking: CalBookingOptions
  done: boolean
  onBooked: (date: string) => void
}) {
  const { t } = useTranslation()
  const element = useRef<HTMLDivElement>(null)
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading')
  const [attempt, setAttempt] = useState(0)
  const booked = useRef(onBooked)
  booked.current = onBooked

  useEffect(() => {
    const target = element.current
    if (!target) return
    let cancelled = false
    const namespace = `flowcraft${++widgets}`
    setState('loading')
    const cal = calFor(booking.baseUrl, namespace)
    cal('inline', {
      elementOrSelector: target,
      calLink: booking.link,
      layout: booking.layout,
      config: { ...booking.prefill, layout: booking.layout },
    })
    cal('on', {
      action: 'bookingSuccessful',
      callback: (event: { detail?: { data?: { date?: unknown; startTime?: unknown } } }) => {
        const data = event?.detail?.data
        const date = data?.date ?? data?.startTime
        if (!cancelled) booked.current(typeof date === 'string' ? date : '')
      },
    })
    cal('on', {
      action: 'linkReady',
      callback: () => {
        if (!cancelled) setState('ready')
      },
    })
    loadScript(`${booking.baseUrl}/embed/embed.js`).then(
      () => {
        if (!cancelled) setState((current) => (current === 'loading' ? 'ready' : current))
      },
      () => {
        if (!cancelled) setState('failed')
      }
    )
    return () => {
      cancelled = true
      target.replaceChildren()
    }
  }, [booking, attempt])

  return (
    <div
      className="fc-host-bubble w-full overflow-hidden rounded-lg"
      role="group"
      aria-label={t('viewer.booking.label')}
      aria-busy={state === 'loading'}
    >
      {state === 'loading' && (
        <p className="p-3 text-sm opacity-70" role="status">
          {t('viewer.booking.loading')}
        </p>
      )}
      {state === 'failed' && !done && (
        <div role="alert" className="flex flex-wrap items-center gap-2 p-3 text-sm">
          <span>{t('viewer.booking.failed')}</span>
          <button
            type="button"
            className="fc-button-outline h-8 px-3"
            onClick={() => setAttempt((value) => value + 1)}
          >
            {t('viewer.booking.retry')}
          </button>
          <button type="button" className="fc-button h-8 px-3" onClick={() => onBooked('')}>
            {t('viewer.booking.skip')}
          </button>
        </div>
      )}
      <div ref={element} className="min-h-[120px] w-full" data-cal-link={booking.link} />
    </div>
  )
}
