import { createContext, useContext } from 'react'
import { createStore, useStore, type StoreApi } from 'zustand'
import type { ResultsTablePreferences } from '#shared/bot/types'
import type { ResultColumnDto, ResultRowDto, ResultsSelection } from '#shared/results/types'
import {
  archiveResults,
  deleteResults,
  fetchResultsPage,
  fetchResultsTable,
  saveTablePreferences,
} from './results_api'
import { clampWidth, moveInOrder, orderColumns } from './column_layout'

export const PAGE_SIZE = 100

type Status = 'loading' | 'ready' | 'error'

export interface ResultsState {
  botId: string
  canWrite: boolean
  columns: ResultColumnDto[]
  preferences: ResultsTablePreferences
  status: Status
  rows: ResultRowDto[]
  nextCursor: string | null
  loadingMore: boolean
  total: number | null
  search: string
  includeAll: boolean
  /** Selected ids; with `allMatching` every result matching the filter is selected. */
  selected: Record<string, true>
  allMatching: boolean
  /** The result whose log view is open. */
  openResultId: string | null

  init(): Promise<void>
  reload(): Promise<void>
  loadMore(): Promise<void>
  setSearch(search: string): void
  setIncludeAll(includeAll: boolean): void
  toggleRow(id: string): void
  toggleAllLoaded(): void
  selectAllMatching(): void
  clearSelection(): void
  selection(): ResultsSelection
  selectedCount(): number
  removeSelected(): Promise<number>
  archiveSelected(): Promise<number>
  setColumnVisible(id: string, visible: boolean): void
  moveColumn(id: string, delta: number): void
  setColumnWidth(id: string, width: number): void
  openResult(id: string | null): void
}

export type ResultsStore = StoreApi<ResultsState>

/**
 * The results table of one bot: pages loaded with a cursor, the filter, the selection and
 * the column preferences (saved on the bot in write mode). One store per results tab.
 */
export function createResultsStore(botId: string) {
  // Answers to an older filter are dropped: each (re)load bumps the generation.
  let generation = 0
  let saveTimer: ReturnType<typeof setTimeout> | null = null

  return createStore<ResultsState>()((set, get) => {
    function savePreferences(delay: number) {
      if (!get().canWrite) return
      if (saveTimer) clearTimeout(saveTimer)
      saveTimer = setTimeout(() => {
        saveTimer = null
        saveTablePreferences(get().botId, get().preferences).catch(() => {
          // Preferences are a convenience: the table keeps working with the local ones.
        })
      }, delay)
    }

    function withOrder(preferences: ResultsTablePreferences) {
      const ordered = orderColumns(get().columns, preferences).map((c) => c.id)
      return { ...preferences, columnsOrder: ordered }
    }

    async function loadFirstPage() {
      const current = ++generation
      set({ status: 'loading', rows: [], nextCursor: null, total: null })
      try {
        const { search, includeAll } = get()
        const page = await fetchResultsPage(get().botId, { search, includeAll, limit: PAGE_SIZE })
        if (current !== generation) return
        set({
          status: 'ready',
          rows: page.results,
          nextCursor: page.nextCursor,
          total: page.total ?? page.results.length,
        })
      } catch {
        if (current === generation) set({ status: 'error' })
      }
    }

    const remaining = (ids: Set<string>) => {
      const { rows, total } = get()
      return {
        rows: rows.filter((row) => !ids.has(row.id)),
        total: total === null ? null : Math.max(0, total - ids.size),
      }
    }

    /** Runs a change on the selection; the rows leave at once and come back on failure. */
    async function changeSelected(
      send: (botId: string, selection: ResultsSelection) => Promise<Record<string, number>>
    ) {
      const state = get()
      const selection = state.selection()
      const before = { rows: state.rows, total: state.total, selected: state.selected }
      const allMatching = state.allMatching
      if (allMatching) set({ rows: [], total: 0, nextCursor: null })
      else set(remaining(new Set(Object.keys(state.selected))))
      set({ selected: {}, allMatching: false })
      try {
        const answer = await send(state.botId, selection)
        if (allMatching) await loadFirstPage()
        return Object.values(answer)[0] ?? 0
      } catch (error) {
        set({ ...before, allMatching })
        throw error
      }
    }

    return {
      botId,
      canWrite: false,
      columns: [],
      preferences: {},
      status: 'loading',
      rows: [],
      nextCursor: null,
      loadingMore: false,
      total: null,
      search: '',
      includeAll: false,
      selected: {},
      allMatching: false,
      openResultId: null,

      async init() {
        set({ status: 'loading' })
        try {
          const table = await fetchResultsTable(get().botId)
          set({ columns: table.columns, preferences: table.preferences, canWrite: table.canWrite })
        } catch {
          set({ status: 'error' })
          return
        }
        await loadFirstPage()
      },

      reload: loadFirstPage,

      async loadMore() {
        const { nextCursor, loadingMore, status, search, includeAll } = get()
        if (!nextCursor || loadingMore || status !== 'ready') return
        const current = generation
        set({ loadingMore: true })
        try {
          const page = await fetchResultsPage(get().botId, {
            cursor: nextCursor,
            search,
            includeAll,
            limit: PAGE_SIZE,
          })
          if (current !== generation) return
          const known = new Set(get().rows.map((row) => row.id))
          set({
            rows: [...get().rows, ...page.results.filter((row) => !known.has(row.id))],
            nextCursor: page.nextCursor,
          })
        } finally {
          if (current === generation) set({ loadingMore: false })
        }
      },

      setSearch(search) {
        if (search === get().search) return
        set({ search, selected: {}, allMatching: false })
        void loadFirstPage()
      },

      setIncludeAll(includeAll) {
        set({ includeAll, selected: {}, allMatching: false })
        void loadFirstPage()
      },

      toggleRow(id) {
        const { selected, allMatching, rows } = get()
        if (allMatching) {
          // Leaving "all matching": the loaded rows stay selected, but this one.
          const next: Record<string, true> = {}
          for (const row of rows) if (row.id !== id) next[row.id] = true
          set({ allMatching: false, selected: next })
          return
        }
        const next = { ...selected }
        if (next[id]) delete next[id]
        else next[id] = true
        set({ selected: next })
      },

      toggleAllLoaded() {
        const { rows, selected, allMatching } = get()
        const everyLoaded = rows.length > 0 && rows.every((row) => selected[row.id])
        if (allMatching || everyLoaded) {
          set({ selected: {}, allMatching: false })
          return
        }
        const next: Record<string, true> = {}
        for (const row of rows) next[row.id] = true
        set({ selected: next })
      },

      selectAllMatching() {
        set({ allMatching: true, selected: {} })
      },

      clearSelection() {
        set({ selected: {}, allMatching: false })
      },

      selection() {
        const { allMatching, selected, search, includeAll } = get()
        if (allMatching) return { all: true, search: search.trim() || undefined, includeAll }
        return { ids: Object.keys(selected) }
      },

      selectedCount() {
        const { allMatching, total, selected } = get()
        return allMatching ? (total ?? 0) : Object.keys(selected).length
      },

      removeSelected() {
        return changeSelected(deleteResults)
      },

      archiveSelected() {
        // Archived rows stay listed (marked) when archived results are shown.
        if (get().includeAll) {
          return (async () => {
            const count = await archiveResults(get().botId, get().selection())
            set({ selected: {}, allMatching: false })
            await loadFirstPage()
            return count.archived
          })()
        }
        return changeSelected(archiveResults)
      },

      setColumnVisible(id, visible) {
        const preferences = withOrder(get().preferences)
        set({
          preferences: {
            ...preferences,
            columnsVisibility: { ...preferences.columnsVisibility, [id]: visible },
          },
        })
        savePreferences(0)
      },

      moveColumn(id, delta) {
        const preferences = withOrder(get().preferences)
        set({
          preferences: {
            ...preferences,
            columnsOrder: moveInOrder(preferences.columnsOrder ?? [], id, delta),
          },
        })
        savePreferences(300)
      },

      setColumnWidth(id, width) {
        const preferences = get().preferences
        set({
          preferences: {
            ...preferences,
            columnsWidth: { ...preferences.columnsWidth, [id]: clampWidth(width) },
          },
        })
        savePreferences(600)
      },

      openResult(id) {
        set({ openResultId: id })
      },
    }
  })
}

export const ResultsContext = createContext<ResultsStore | null>(null)

export function useResultsApi(): ResultsStore {
  const store = useContext(ResultsContext)
  if (!store) throw new Error('useResults must be used inside <ResultsContext>')
  return store
}

export function useResults<T>(selector: (state: ResultsState) => T): T {
  return useStore(useResultsApi(), selector)
}
