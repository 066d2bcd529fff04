import { useEffect } from 'react'
import { router, usePage } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import type { TFunction } from 'i18next'
import { create } from 'zustand'
import { driver, type Driver, type DriveStep } from 'driver.js'
import 'driver.js/dist/driver.css'
import './tour.css'
import { jsonFetch } from '~/lib/http'
import { usePageProps } from '~/hooks/use_shared_props'
import { TOURS, pathOf, tourPending, type Tour, type TourId } from './tours'

/*
 * The running tour lives outside React pages: Inertia swaps the page (and its layout) on
 * a route change, and a tour step on the next page must pick up where the last one ended.
 */
interface TourState {
  /** `run` tells a restart from the help menu apart from the tour already showing */
  active: { id: TourId; index: number; run: number } | null
  /** Tours finished or skipped in this tab: not started again before the user reloads. */
  ended: TourId[]
}

export const useTourStore = create<TourState>(() => ({ active: null, ended: [] }))

/** Starts a tour at its first step, going to its page first when it has one elsewhere. */
export function startTour(id: TourId) {
  const tour = TOURS[id]
  useTourStore.setState((state) => ({
    active: { id, index: 0, run: (state.active?.run ?? 0) + 1 },
  }))
  const first = tour.steps[0]
  if (!first.path.test(pathOf(window.location.pathname)) && tour.href) router.visit(tour.href)
}

/** Saves the tour's completion flag (a failure is only logged), then refreshes the user. */
async function endTour(tour: Tour) {
  useTourStore.setState((state) => ({ active: null, ended: [...state.ended, tour.id] }))
  try {
    await jsonFetch('/api/updateTourStatus', { method: 'POST', body: { [tour.flag]: true } })
  } catch (error) {
    console.error(`[tours] saving ${tour.flag} failed`, error)
  }
  router.reload({ only: ['user'] })
}

const selectorOf = (target: string) => `[data-tour="${target}"]`

function buildDriver(tour: Tour, t: TFunction, path: string): Driver {
  const total = tour.steps.length
  let leaving = false

  /** Next or Previous: on this page, driver.js moves; elsewhere, we go there first. */
  const go = (instance: Driver, index: number) => {
    const step = tour.steps[index]
    useTourStore.setState((state) => ({
      active: state.active && { ...state.active, index },
    }))
    if (step.path.test(path)) return instance.moveTo(index)
    leaving = true
    instance.destroy()
    if (step.href) router.visit(step.href)
  }
  const finish = (instance: Driver) => {
    if (leaving) return
    leaving = true
    instance.destroy()
    void endTour(tour)
  }

  const steps: DriveStep[] = tour.steps.map((step, index) => ({
    element: selectorOf(step.target),
    // A page still loading its part (deferred props) gets a moment; an element that never
    // comes (a read-only editor has no Publish) gives a centred card.
    waitForElement: 2000,
    popover: {
      title: t(`onboarding.${tour.id}.${step.key}.title`),
      description: t(`onboarding.${tour.id}.${step.key}.description`),
      side: step.side,
      progressText: t('onboarding.tour.progress', { current: index + 1, total }),
    },
  }))

  const instance = driver({
    steps,
    popoverClass: 'fc-tour',
    showProgress: true,
    animate: !window.matchMedia('(prefers-reduced-motion: reduce)').matches,
    allowClose: true,
    // A stray click beside the card does not end the tour: Skip and Escape do.
    overlayClickBehavior: () => {},
    disableActiveInteraction: true,
    showButtons: ['next', 'previous'],
    nextBtnText: t('onboarding.tour.next'),
    prevBtnText: t('onboarding.tour.previous'),
    doneBtnText: t('onboarding.tour.finish'),
    stagePadding: 6,
    stageRadius: 8,
    onPopoverRender: (popover, { state }) => {
      const skip = document.createElement('button')
      skip.type = 'button'
      skip.className = 'fc-tour-skip'
      skip.dataset.testid = 'tour-skip'
      skip.textContent = t('onboarding.tour.skip')
      skip.addEventListener('click', () => finish(instance))
      popover.footer.prepend(skip)
      popover.wrapper.dataset.testid = 'tour-card'
      popover.wrapper.dataset.tour = tour.id
      popover.wrapper.dataset.step = String(state.activeIndex ?? 0)
      popover.nextButton.dataset.testid =
        state.activeIndex === total - 1 ? 'tour-finish' : 'tour-next'
      popover.previousButton.dataset.testid = 'tour-previous'
    },
    onNextClick: () => {
      const index = instance.getActiveIndex() ?? 0
      if (index >= total - 1) return finish(instance)
      go(instance, index + 1)
    },
    onPrevClick: () => {
      const index = instance.getActiveIndex() ?? 0
      if (index > 0) go(instance, index - 1)
    },
    // Escape and the close button: the same as Skip.
    onDestroyStarted: () => finish(instance),
  })
  return instance
}

/**
 * Shows the running tour's step on this page, and starts the page's tour the first time
 * the user lands here (its completion flag not set). Mounted by the app shell and by the
 * editors; `autoStart` is off where a tour would have nothing to show (read-only editor).
 */
export function TourHost({ autoStart = true }: { autoStart?: boolean }) {
  const { t } = useTranslation()
  const { url } = usePage()
  const { user } = usePageProps()
  const path = pathOf(url)
  const active = useTourStore((state) => state.active)
  const tourStatus = user?.tourStatus

  useEffect(() => {
    if (!autoStart || !tourStatus || useTourStore.getState().active) return
    const tour = Object.values(TOURS).find((candidate) => candidate.startsOn.test(path))
    if (!tour || !tourPending(tour, tourStatus)) return
    if (useTourStore.getState().ended.includes(tour.id)) return
    if (tour.wideOnly && window.matchMedia('(max-width: 767px)').matches) return
    useTourStore.setState({ active: { id: tour.id, index: 0, run: 0 } })
  }, [autoStart, path, tourStatus])

  const activeId = active?.id
  const run = active?.run
  useEffect(() => {
    if (!activeId) return
    const tour = TOURS[activeId]
    const index = useTourStore.getState().active?.index ?? 0
    // The step's page is still loading (Next went elsewhere): its host picks it up.
    if (!tour.steps[index].path.test(path)) return
    let instance: Driver | undefined
    // After the page has painted: its elements are measured for the highlight.
    const frame = requestAnimationFrame(() => {
      instance = buildDriver(tour, t, path)
      instance.drive(index)
    })
    return () => {
      cancelAnimationFrame(frame)
      // Leaving the page ends this card only; the tour goes on where its next step is.
      instance?.destroy()
    }
  }, [activeId, run, path, t])

  return null
}
