import { useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { BracesIcon, ListTreeIcon, TableIcon } from 'lucide-react'
import { cn } from '~/lib/utils'
import { JsonView } from './json_view'
import type { OutputSchema } from '../../../app/plugins/output_schema'

/**
 * A node's input or output as n8n users read it: a table, the JSON, or its schema (keys and
 * types). With `mapping`, every key is a handle: dragged into a text field it drops the
 * reference to its value; Enter (or a click) hands it to `mapping.onPick`.
 */

export type DataViewMode = 'table' | 'json' | 'schema'
export const DATA_VIEW_MODES: readonly DataViewMode[] = ['table', 'json', 'schema']

export interface DataMapping {
  /** The reference text for a path inside the shown value ('' is the whole value). */
  expressionOf: (path: string) => string
  onPick: (expression: string) => void
}

/** Rows and columns shown at most: the JSON view and the API have the rest. */
const MAX_ROWS = 50
const MAX_COLUMNS = 12
const MAX_DEPTH = 6

/** Dragged references carry this type beside text/plain, which text fields take on drop. */
export const REFERENCE_MIME = 'application/x-flowcraft-reference'

export function childPath(parent: string, key: string | number) {
  if (typeof key === 'number') return `${parent}[${key}]`
  return parent ? `${parent}.${key}` : key
}

/** Keys the reference syntax cannot address (it splits paths on dots and brackets). */
function addressable(key: string | number) {
  return typeof key === 'number' || (key !== '' && !/[.[\]{}]/.test(key))
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function typeOf(value: unknown) {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

function preview(value: unknown) {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'string') return value
  const text = JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 120)}…` : text
}

export function DataView({
  value,
  mode,
  mapping,
  testId,
}: {
  value: unknown
  mode: DataViewMode
  mapping?: DataMapping
  testId?: string
}) {
  if (mode === 'json') return <JsonView value={value} testId={testId} />
  return (
    <div
      data-testid={testId}
      data-mode={mode}
      className="max-h-80 overflow-auto rounded-md border bg-muted/30 text-xs"
    >
      {mode === 'table' ? (
        <TableView value={value} mapping={mapping} />
      ) : (
        <SchemaView value={value} path="" mapping={mapping} depth={0} />
      )}
    </div>
  )
}

/** The view switch above a data pane (a radio group: arrows move, as in any toolbar). */
export function DataViewSwitch({
  mode,
  onChange,
  label,
}: {
  mode: DataViewMode
  onChange: (mode: DataViewMode) => void
  label: string
}) {
  const { t } = useTranslation()
  const icons = { table: TableIcon, json: BracesIcon, schema: ListTreeIcon }
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex rounded-md border p-0.5">
      {DATA_VIEW_MODES.map((candidate, index) => {
        const Icon = icons[candidate]
        const checked = candidate === mode
        return (
          <button
            key={candidate}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            data-testid={`data-view-${candidate}`}
            onClick={() => onChange(candidate)}
            onKeyDown={(event) => {
              const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
              if (!step) return
              event.preventDefault()
              const next = DATA_VIEW_MODES[(index + step + 3) % 3]
              onChange(next)
              const group = event.currentTarget.parentElement
              requestAnimationFrame(() =>
                group?.querySelector<HTMLElement>(`[data-testid="data-view-${next}"]`)?.focus()
              )
            }}
            className={cn(
              'inline-flex items-center gap-1 rounded px-2 py-0.5 text-xs outline-none',
              'focus-visible:ring-2 focus-visible:ring-ring/50',
              checked
                ? 'bg-primary text-primary-foreground'
                : 'text-muted-foreground hover:bg-muted'
            )}
          >
            <Icon className="size-3" aria-hidden />
            {t(`nodeData.view.${candidate}`)}
          </button>
        )
      })}
    </div>
  )
}

/** A key as a handle: dragged, it carries its reference; Enter or a click picks it. */
function KeyHandle({ name, path, mapping }: { name: string; path: string; mapping?: DataMapping }) {
  const { t } = useTranslation()
  if (!mapping) return <span className="font-medium">{name}</span>
  const expression = mapping.expressionOf(path)
  return (
    <button
      type="button"
      draggable
      data-testid="data-key"
      data-path={path}
      title={t('nodeData.dragHint', { expression })}
      aria-label={t('nodeData.keyLabel', { name, expression })}
      onDragStart={(event: DragEvent<HTMLButtonElement>) => {
        event.dataTransfer.setData('text/plain', expression)
        event.dataTransfer.setData(REFERENCE_MIME, expression)
        event.dataTransfer.effectAllowed = 'copy'
      }}
      onClick={() => mapping.onPick(expression)}
      className={cn(
        'cursor-grab rounded border border-dashed border-transparent px-1 font-medium outline-none',
        'hover:border-primary/50 hover:bg-primary/10 focus-visible:ring-2 focus-visible:ring-ring/50',
        'active:cursor-grabbing'
      )}
    >
      {name}
    </button>
  )
}

function Key({ name, path, mapping }: { name: string; path: string; mapping?: DataMapping }) {
  return addressable(name) ? (
    <KeyHandle name={name} path={path} mapping={mapping} />
  ) : (
    <span className="font-medium">{name}</span>
  )
}

function TableView({ value, mapping }: { value: unknown; mapping?: DataMapping }) {
  const { t } = useTranslation()
  if (Array.isArray(value) && value.length > 0 && value.every(isObject)) {
    const columns = [...new Set(value.flatMap((row) => Object.keys(row)))].slice(0, MAX_COLUMNS)
    const rows = value.slice(0, MAX_ROWS)
    return (
      <table className="w-full border-collapse text-left">
        <thead>
          <tr>
            <th scope="col" className="border-b px-2 py-1 text-muted-foreground">
              #
            </th>
            {columns.map((column) => (
              <th key={column} scope="col" className="border-b px-2 py-1">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              <td className="border-b px-2 py-1 text-muted-foreground">{index}</td>
              {columns.map((column) => (
                <td key={column} className="border-b px-2 py-1 align-top break-all">
                  {column in row ? (
                    <span className="flex flex-wrap items-baseline gap-1">
                      <Key
                        name={String(preview(row[column]))}
                        path={childPath(childPath('', index), column)}
                        mapping={mapping}
                      />
                    </span>
                  ) : null}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {value.length > MAX_ROWS && (
          <caption className="caption-bottom p-1 text-muted-foreground">
            {t('nodeData.moreRows', { count: value.length - MAX_ROWS })}
          </caption>
        )}
      </table>
    )
  }
  if (isObject(value) || Array.isArray(value)) {
    const entries: [string | number, unknown][] = Array.isArray(value)
      ? value.slice(0, MAX_ROWS).map((item, index) => [index, item])
      : Object.entries(value).slice(0, MAX_ROWS)
    if (entries.length === 0) {
      return <p className="p-2 text-muted-foreground">{t('nodeData.emptyValue')}</p>
    }
    return (
      <table className="w-full border-collapse text-left">
        <thead>
          <tr>
            <th scope="col" className="border-b px-2 py-1">
              {t('nodeData.field')}
            </th>
            <th scope="col" className="border-b px-2 py-1">
              {t('nodeData.value')}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map(([key, item]) => (
            <tr key={key}>
              <th scope="row" className="border-b px-2 py-1 align-top font-normal">
                <Key
                  name={typeof key === 'number' ? `[${key}]` : key}
                  path={childPath('', key)}
                  mapping={mapping}
                />
              </th>
              <td className="border-b px-2 py-1 align-top font-mono break-all">{preview(item)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    )
  }
  return <p className="p-2 font-mono break-all">{preview(value)}</p>
}

function SchemaView({
  value,
  path,
  mapping,
  depth,
}: {
  value: unknown
  path: string
  mapping?: DataMapping
  depth: number
}) {
  const { t } = useTranslation()
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.length > 0
      ? [[0, value[0]]]
      : []
    : isObject(value)
      ? Object.entries(value)
      : []
  if (depth === 0 && entries.length === 0) {
    return (
      <p className="p-2">
        <span className="rounded bg-muted px-1 text-muted-foreground">{typeOf(value)}</span>{' '}
        <span className="font-mono">{preview(value)}</span>
      </p>
    )
  }
  return (
    <ul className={cn('space-y-0.5', depth === 0 ? 'p-2' : 'ml-3 border-l pl-2')}>
      {entries.map(([key, item]) => {
        const itemPath = childPath(path, key)
        const nested = (isObject(item) || Array.isArray(item)) && depth < MAX_DEPTH
        return (
          <li key={key}>
            <span className="flex flex-wrap items-baseline gap-1">
              <Key
                name={typeof key === 'number' ? `[${key}]` : key}
                path={itemPath}
                mapping={mapping}
              />
              <span className="rounded bg-muted px-1 text-[0.65rem] text-muted-foreground">
                {t(`nodeData.type.${typeOf(item)}`, { defaultValue: typeOf(item) })}
              </span>
              {!nested && (
                <span className="truncate font-mono text-muted-foreground">{preview(item)}</span>
              )}
            </span>
            {nested && (
              <SchemaView value={item} path={itemPath} mapping={mapping} depth={depth + 1} />
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** A titled pane with its view switch: what the Runs page shows for a node's input or output. */
export function DataPane({
  title,
  value,
  testId,
  initial = 'json',
}: {
  title: string
  value: unknown
  testId: string
  initial?: DataViewMode
}) {
  const { t } = useTranslation()
  const [mode, setMode] = useState<DataViewMode>(initial)
  return (
    <div className="grid min-w-0 gap-1">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-xs font-semibold text-muted-foreground">{title}</h3>
        <DataViewSwitch
          mode={mode}
          onChange={setMode}
          label={t('nodeData.viewOf', { name: title })}
        />
      </div>
      <DataView value={value} mode={mode} testId={testId} />
    </div>
  )
}

/**
 * A node's declared output (its plugin's `outputSchema`) before any run: keys as handles,
 * with their type; no values, there are none yet.
 */
export function DeclaredView({
  schema,
  mapping,
  testId,
}: {
  schema: OutputSchema
  mapping?: DataMapping
  testId?: string
}) {
  return (
    <div
      data-testid={testId}
      data-mode="declared"
      className="max-h-80 overflow-auto rounded-md border bg-muted/30 text-xs"
    >
      <DeclaredFields schema={schema} path="" mapping={mapping} depth={0} />
    </div>
  )
}

function DeclaredFields({
  schema,
  path,
  mapping,
  depth,
}: {
  schema: OutputSchema
  path: string
  mapping?: DataMapping
  depth: number
}) {
  const { t } = useTranslation()
  const entries: [string | number, OutputSchema][] =
    schema.type === 'object'
      ? Object.entries(schema.properties)
      : schema.type === 'array' && schema.items
        ? [[0, schema.items]]
        : []
  if (entries.length === 0) return null
  return (
    <ul className={cn('space-y-0.5', depth === 0 ? 'p-2' : 'ml-3 border-l pl-2')}>
      {entries.map(([key, item]) => {
        const itemPath = childPath(path, key)
        return (
          <li key={key}>
            <span className="flex flex-wrap items-baseline gap-1">
              <Key
                name={typeof key === 'number' ? `[${key}]` : key}
                path={itemPath}
                mapping={mapping}
              />
              <span className="rounded bg-muted px-1 text-[0.65rem] text-muted-foreground">
                {t(`nodeData.type.${item.type}`)}
              </span>
            </span>
            {depth < MAX_DEPTH && (
              <DeclaredFields schema={item} path={itemPath} mapping={mapping} depth={depth + 1} />
            )}
          </li>
        )
      })}
    </ul>
  )
}
