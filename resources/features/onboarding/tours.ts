import type { Side } from 'driver.js'

/**
 * The guided tours (docs/onboarding.md). Each step points at an element marked
 * `data-tour="…"` on the page named by `path`; a step on another page than the one before
 * it makes Next or Previous go there first (`href`).
 */

export const TOUR_IDS = ['mainTour', 'botCreation', 'workflowTour', 'vectorTour'] as const
export type TourId = (typeof TOUR_IDS)[number]

/** The user's tourStatus flag saved when a tour is finished or skipped. */
export type TourFlag =
  'dashboardTourCompleted' | 'botTourCompleted' | 'workflowTourCompleted' | 'vectorTourCompleted'

export interface TourStep {
  /** i18n key under `onboarding.<tour>.` holding title and description */
  key: string
  /** data-tour value of the element shown; missing elements get a centred card */
  target: string
  /** the pages this step belongs to */
  path: RegExp
  /** where to go when the step is reached from another page */
  href?: string
  side?: Side
}

export interface Tour {
  id: TourId
  flag: TourFlag
  /** pages where it starts by itself the first time (flag not set) */
  startsOn: RegExp
  /** where the help menu opens it from another page; editor tours need their editor */
  href?: string
  /** Only started by itself on wide screens: on a phone the editor needs every pixel. */
  wideOnly?: boolean
  steps: TourStep[]
}

const BOTS = /^\/bots$/
const WORKFLOWS = /^\/workflows$/
const BOT_EDITOR = /^\/bots\/[^/]+\/edit$/
const WORKFLOW_EDITOR = /^\/workflows\/(?!import$)[^/]+$/
const VECTORS = /^\/vectors$/

export const TOURS: Record<TourId, Tour> = {
  mainTour: {
    id: 'mainTour',
    flag: 'dashboardTourCompleted',
    startsOn: BOTS,
    href: '/bots',
    steps: [
      { key: 'createBot', target: 'bots-create', path: BOTS, href: '/bots', side: 'bottom' },
      { key: 'workflows', target: 'nav-workflows', path: BOTS, href: '/bots' },
      {
        key: 'createWorkflow',
        target: 'workflows-create',
        path: WORKFLOWS,
        href: '/workflows',
        side: 'bottom',
      },
      { key: 'vectors', target: 'nav-vectors', path: WORKFLOWS, href: '/workflows' },
      { key: 'workspace', target: 'workspace-switcher', path: WORKFLOWS, href: '/workflows' },
      { key: 'help', target: 'help-menu', path: WORKFLOWS, href: '/workflows' },
    ],
  },
  botCreation: {
    id: 'botCreation',
    flag: 'botTourCompleted',
    startsOn: BOT_EDITOR,
    wideOnly: true,
    steps: [
      { key: 'blocks', target: 'editor-blocks', path: BOT_EDITOR, side: 'right' },
      { key: 'canvas', target: 'editor-canvas', path: BOT_EDITOR },
      { key: 'preview', target: 'editor-preview', path: BOT_EDITOR, side: 'bottom' },
      { key: 'tabs', target: 'editor-tabs', path: BOT_EDITOR, side: 'bottom' },
      { key: 'publish', target: 'editor-publish', path: BOT_EDITOR, side: 'bottom' },
      { key: 'help', target: 'help-menu', path: BOT_EDITOR, side: 'bottom' },
    ],
  },
  workflowTour: {
    id: 'workflowTour',
    flag: 'workflowTourCompleted',
    startsOn: WORKFLOW_EDITOR,
    wideOnly: true,
    steps: [
      { key: 'palette', target: 'workflow-palette', path: WORKFLOW_EDITOR, side: 'right' },
      { key: 'canvas', target: 'workflow-canvas', path: WORKFLOW_EDITOR },
      { key: 'run', target: 'workflow-run', path: WORKFLOW_EDITOR, side: 'bottom' },
      { key: 'publish', target: 'workflow-publish', path: WORKFLOW_EDITOR, side: 'bottom' },
      { key: 'help', target: 'help-menu', path: WORKFLOW_EDITOR, side: 'bottom' },
    ],
  },
  vectorTour: {
    id: 'vectorTour',
    flag: 'vectorTourCompleted',
    startsOn: VECTORS,
    href: '/vectors',
    steps: [
      { key: 'create', target: 'vectors-create', path: VECTORS, side: 'bottom' },
      { key: 'list', target: 'vectors-list', path: VECTORS, side: 'top' },
      { key: 'help', target: 'help-menu', path: VECTORS },
    ],
  },
}

export function pathOf(url: string) {
  return url.split(/[?#]/)[0]
}

/** Whether the user may still get this tour by itself. */
export function tourPending(tour: Tour, tourStatus: Record<string, boolean> | undefined) {
  return !tourStatus?.[tour.flag]
}
