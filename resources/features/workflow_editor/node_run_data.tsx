import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LoaderCircleIcon, PinIcon, PinOffIcon, TriangleAlertIcon } from 'lucide-react'
import type { WorkflowRunDetailDto, WorkflowRunNodeDto } from '#shared/workflow/dto'
import type { WorkflowBlock } from '#shared/workflow/types'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { Textarea } from '~/components/ui/textarea'
import { jsonFetch } from '~/lib/http'
import { formatDateTime } from '~/lib/format'
import {
  DataView,
  DataViewSwitch,
  DeclaredView,
  type DataMapping,
  type DataViewMode,
} from '~/features/workflow_runs/data_views'
import { JsonView } from '~/features/workflow_runs/json_view'
import { useWorkflowEditor, useWorkflowEditorApi } from './workflow_editor_store'
import { setPinnedData } from './workflow_editing'
import { inputReference, nodeReference } from './node_references'
import { declaredInput, declaredOutput } from './declared_output'
import { useWorkflowPlugins } from './workflow_plugins'
import type { RunProgress } from './types'
// Its strings load with the panels, not with every page.
import '~/features/plugin_form/panel_strings'

/**
 * The open node's data from the run the canvas shows (a test run, or a run opened from
 * the Runs page): its input and output in three views, its error and timing. Keys of the
 * input, or of an earlier node's output, map into the node's fields (drag, or Enter).
 * A trigger's pinned sample is kept and edited here (docs/workflows.md "Pinned data").
 */

type Detail =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'error' }
  | { state: 'ready'; run: WorkflowRunDetailDto }

/** Reads the shown run's record again whenever a status of it moves. */
function useRunDetail(run: RunProgress | null): Detail {
  const [loaded, setLoaded] = useState<{ runId: string; run?: WorkflowRunDetailDto } | null>(null)
  const version = run
    ? `${run.id}:${run.status}:${Object.entries(run.nodes)
        .map(([id, status]) => `${id}=${status}`)
        .join(',')}`
    : ''
  useEffect(() => {
    if (!run) return
    const controller = new AbortController()
    // Node events come in bursts: one read per burst.
    const timer = setTimeout(() => {
      jsonFetch<{ run: WorkflowRunDetailDto }>(`/api/v1/runs/${run.id}`, {
        signal: controller.signal,
      })
        .then((answer) => setLoaded({ runId: run.id, run: answer.run }))
        .catch(() => {
          if (!controller.signal.aborted) setLoaded({ runId: run.id })
        })
    }, 150)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [version])
  if (!run) return { state: 'none' }
  if (!loaded || loaded.runId !== run.id) return { state: 'loading' }
  return loaded.run ? { state: 'ready', run: loaded.run } : { state: 'error' }
}

/** The latest visit of a node in a run (a node in a loop has several). */
function lastRecord(run: WorkflowRunDetailDto | undefined, nodeId: string) {
  return run?.nodes.filter((node) => node.nodeId === nodeId).at(-1)
}

/** Nodes whose output reaches this one through flow edges, nearest first. */
function upstreamOf(
  blockId: string,
  edges: { from: { blockId: string }; to: { blockId: string }; isAttachment?: boolean }[]
) {
  const found: string[] = []
  let frontier = [blockId]
  while (frontier.length > 0) {
    const next: string[] = []
    for (const id of frontier) {
      for (const edge of edges) {
        if (edge.isAttachment || edge.to.blockId !== id) continue
        const from = edge.from.blockId
        if (from === blockId || found.includes(from)) continue
        found.push(from)
        next.push(from)
      }
    }
    frontier = next
  }
  return found
}

export function NodeRunData({
  block,
  trigger,
  readOnly,
  onPick,
  nameOf,
}: {
  block: WorkflowBlock
  trigger: boolean
  readOnly: boolean
  onPick: (expression: string) => void
  nameOf: (block: WorkflowBlock) => string
}) {
  const { t } = useTranslation()
  const id = useId()
  const run = useWorkflowEditor((state) => state.run)
  const blocks = useWorkflowEditor((state) => state.history.present.blocks)
  const edges = useWorkflowEditor((state) => state.history.present.edges)
  const detail = useRunDetail(run)
  const [inputMode, setInputMode] = useState<DataViewMode>('table')
  const [outputMode, setOutputMode] = useState<DataViewMode>('table')
  const [source, setSource] = useState<string>('input')

  const data = detail.state === 'ready' ? detail.run : undefined
  const record = lastRecord(data, block.id)
  const upstream = useMemo(() => upstreamOf(block.id, edges), [block.id, edges])
  // Earlier nodes that have data in this run: their outputs can be mapped by name.
  const earlier = upstream
    .map((nodeId) => ({
      block: blocks.find((b) => b.id === nodeId),
      record: lastRecord(data, nodeId),
    }))
    .filter((entry): entry is { block: WorkflowBlock; record: WorkflowRunNodeDto } =>
      Boolean(entry.block && entry.record && entry.record.status !== 'error')
    )
  // A node that has not run yet takes its input from its nearest upstream node's output.
  const nearest = earlier[0]
  const input = record ? record.input : nearest?.record.output
  const chosen = earlier.find((entry) => entry.block.id === source)
  // No run data to map from yet: the pinned samples and declared outputs of the nodes
  // before this one (their plugins' output schemas), shown as their schema.
  const plugins = useWorkflowPlugins()
  const undeclared = input !== undefined || earlier.length > 0
  const declared = useMemo(() => {
    if (undeclared) return { input: undefined, nodes: [] }
    const doc = { blocks, edges }
    return {
      input: declaredInput(doc, plugins, block.id),
      nodes: upstream.flatMap((nodeId) => {
        const output = declaredOutput(doc, plugins, nodeId)
        const from = blocks.find((candidate) => candidate.id === nodeId)
        return output && from ? [{ block: from, output }] : []
      }),
    }
  }, [undeclared, blocks, edges, plugins, block.id, upstream])
  const chosenDeclared = declared.nodes.find((entry) => entry.block.id === source)
  const declaredShown = chosenDeclared?.output ?? declared.input
  const shown = chosen ? chosen.record.output : input
  const mappedNode = chosen?.block ?? chosenDeclared?.block
  const mapping: DataMapping | undefined = readOnly
    ? undefined
    : {
        expressionOf: (path) =>
          mappedNode
            ? nodeReference(mappedNode.title || mappedNode.id, path)
            : inputReference(path),
        onPick,
      }
  const pinned = trigger && block.pinnedData !== undefined
  const output = record && record.status !== 'running' ? record.output : undefined

  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid="node-run-data"
      data-run-id={run?.id}
      className="grid content-start gap-4 p-4"
    >
      <header className="flex flex-wrap items-center gap-2">
        <h3 id={`${id}-title`} className="text-sm font-semibold">
          {t('nodeData.title')}
        </h3>
        {record && (
          <Badge
            variant={
              record.status === 'error'
                ? 'destructive'
                : record.status === 'success'
                  ? 'success'
                  : 'secondary'
            }
            data-testid="node-run-status"
            data-status={record.status}
          >
            {t(`workflowEditor.run.status.${record.status}`)}
          </Badge>
        )}
        {record?.durationMs !== null && record?.durationMs !== undefined && (
          <span className="text-xs text-muted-foreground" data-testid="node-run-timing">
            {t('nodeData.timing', {
              ms: record.durationMs,
              at: formatDateTime(record.startedAt),
            })}
          </span>
        )}
        {pinned && (
          <Badge variant="outline" data-testid="node-pinned" className="gap-1">
            <PinIcon className="size-3" aria-hidden />
            {t('nodeData.pinned')}
          </Badge>
        )}
      </header>

      {detail.state === 'none' && !pinned && (
        <p className="text-sm text-muted-foreground" data-testid="node-run-empty">
          {t('nodeData.empty')}
        </p>
      )}
      {detail.state === 'loading' && (
        <div className="grid gap-2" data-testid="node-run-loading" aria-busy="true">
          <span className="sr-only">{t('nodeData.loading')}</span>
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-24 w-full" />
        </div>
      )}
      {detail.state === 'error' && (
        <p role="alert" className="text-sm text-destructive">
          {t('nodeData.loadError')}
        </p>
      )}
      {detail.state === 'ready' && !record && (
        <p className="text-sm text-muted-foreground" data-testid="node-run-missing">
          {t('nodeData.notRun')}
        </p>
      )}
      {record?.status === 'running' && (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
          {t('nodeData.running')}
        </p>
      )}
      {record?.error && (
        <div
          role="alert"
          data-testid="node-run-error"
          className="grid gap-2 rounded-md border border-destructive/40 bg-destructive/10 p-3 text-sm"
        >
          <p className="flex items-start gap-2 font-medium text-destructive">
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
            {record.error}
          </p>
          {record.errorDetails !== null && record.errorDetails !== undefined && (
            <div>
              <p className="mb-1 text-xs font-semibold text-muted-foreground">
                {t('nodeData.cause')}
              </p>
              <JsonView value={record.errorDetails} testId="node-run-error-cause" />
            </div>
          )}
        </div>
      )}

      {!trigger && (input !== undefined || earlier.length > 0) && (
        <div className="grid gap-2" data-testid="node-input-pane">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h4 className="text-xs font-semibold text-muted-foreground">{t('nodeData.input')}</h4>
            <DataViewSwitch
              mode={inputMode}
              onChange={setInputMode}
              label={t('nodeData.inputView')}
            />
          </div>
          {earlier.length > 0 && (
            <label className="grid gap-1 text-xs">
              <span className="text-muted-foreground">{t('nodeData.source')}</span>
              <select
                data-testid="node-input-source"
                value={chosen ? chosen.block.id : 'input'}
                onChange={(event) => setSource(event.target.value)}
                className="h-8 rounded-md border bg-background px-2 text-sm"
              >
                <option value="input">{t('nodeData.ownInput')}</option>
                {earlier.map((entry) => (
                  <option key={entry.block.id} value={entry.block.id}>
                    {t('nodeData.outputOf', { name: nameOf(entry.block) })}
                  </option>
                ))}
              </select>
            </label>
          )}
          {!readOnly && <p className="text-xs text-muted-foreground">{t('nodeData.mapHint')}</p>}
          <DataView value={shown} mode={inputMode} mapping={mapping} testId="node-input-data" />
        </div>
      )}

      {!trigger && !undeclared && (declared.input || declared.nodes.length > 0) && (
        <div className="grid gap-2" data-testid="node-input-pane" data-declared="true">
          <h4 className="text-xs font-semibold text-muted-foreground">
            {t('nodeData.expectedInput')}
          </h4>
          {declared.nodes.length > 0 && (
            <label className="grid gap-1 text-xs">
              <span className="text-muted-foreground">{t('nodeData.source')}</span>
              <select
                data-testid="node-input-source"
                value={chosenDeclared ? chosenDeclared.block.id : 'input'}
                onChange={(event) => setSource(event.target.value)}
                className="h-8 rounded-md border bg-background px-2 text-sm"
              >
                {declared.input && <option value="input">{t('nodeData.ownInput')}</option>}
                {declared.nodes.map((entry) => (
                  <option key={entry.block.id} value={entry.block.id}>
                    {t('nodeData.outputOf', { name: nameOf(entry.block) })}
                  </option>
                ))}
              </select>
            </label>
          )}
          <p className="text-xs text-muted-foreground" data-testid="node-declared-hint">
            {declaredShown?.sample === undefined
              ? t('nodeData.declaredHint')
              : t('nodeData.pinnedHint')}
          </p>
          {declaredShown?.sample !== undefined ? (
            <DataView
              value={declaredShown.sample}
              mode={inputMode}
              mapping={mapping}
              testId="node-input-data"
            />
          ) : (
            declaredShown && (
              <DeclaredView
                schema={declaredShown.schema}
                mapping={mapping}
                testId="node-input-data"
              />
            )
          )}
        </div>
      )}

      {(output !== undefined || pinned) && (
        <div className="grid gap-2" data-testid="node-output-pane">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h4 className="text-xs font-semibold text-muted-foreground">
              {pinned ? t('nodeData.pinnedOutput') : t('nodeData.output')}
            </h4>
            <DataViewSwitch
              mode={outputMode}
              onChange={setOutputMode}
              label={t('nodeData.outputView')}
            />
          </div>
          <DataView
            value={pinned ? block.pinnedData : output}
            mode={outputMode}
            testId="node-output-data"
          />
        </div>
      )}

      {trigger && !readOnly && <PinnedData block={block} lastOutput={output} />}
    </section>
  )
}

/** A trigger's pinned sample: pin the last output, type or paste JSON, or unpin. */
function PinnedData({ block, lastOutput }: { block: WorkflowBlock; lastOutput: unknown }) {
  const { t } = useTranslation()
  const id = useId()
  const api = useWorkflowEditorApi()
  const [editing, setEditing] = useState(false)
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const pinned = block.pinnedData !== undefined
  const pin = (value: unknown) => api.getState().edit((doc) => setPinnedData(doc, block.id, value))

  function save() {
    try {
      pin(JSON.parse(text))
      setEditing(false)
      setError(null)
    } catch {
      setError(t('nodeData.invalidJson'))
    }
  }

  return (
    <div className="grid gap-2 rounded-md border border-dashed p-3" data-testid="node-pin">
      <p className="text-xs text-muted-foreground">{t('nodeData.pinHint')}</p>
      {editing ? (
        <>
          <label htmlFor={`${id}-json`} className="text-xs font-medium">
            {t('nodeData.pinJson')}
          </label>
          <Textarea
            id={`${id}-json`}
            data-testid="node-pin-json"
            className="min-h-32 font-mono text-xs"
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setText(event.target.value)}
          />
          {error && (
            <p id={`${id}-error`} className="text-xs text-destructive">
              {error}
            </p>
          )}
          <div className="flex gap-2">
            <Button size="sm" data-testid="node-pin-save" onClick={save}>
              {t('nodeData.pinSave')}
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
              {t('nodeData.pinCancel')}
            </Button>
          </div>
        </>
      ) : (
        <div className="flex flex-wrap gap-2">
          {lastOutput !== undefined && (
            <Button
              size="sm"
              variant="outline"
              data-testid="node-pin-output"
              onClick={() => pin(lastOutput)}
            >
              <PinIcon aria-hidden /> {t('nodeData.pinOutput')}
            </Button>
          )}
          <Button
            size="sm"
            variant="outline"
            data-testid="node-pin-edit"
            onClick={() => {
              setText(JSON.stringify(pinned ? block.pinnedData : (lastOutput ?? {}), null, 2))
              setEditing(true)
            }}
          >
            {pinned ? t('nodeData.pinEdit') : t('nodeData.pinType')}
          </Button>
          {pinned && (
            <Button
              size="sm"
              variant="ghost"
              data-testid="node-unpin"
              onClick={() => api.getState().edit((doc) => setPinnedData(doc, block.id, undefined))}
            >
              <PinOffIcon aria-hidden /> {t('nodeData.unpin')}
            </Button>
          )}
        </div>
      )}
    </div>
  )
}
