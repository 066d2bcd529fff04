import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '~/lib/utils'
import type { CodeEditorHandle, CodeProblem } from './code_editor_setup'
import { jsonProblem, type VariableSyntax } from './code_problems'
import type { FormVariable } from './types'
import { useRegisterInsertion } from './variable_insertion'

export interface CodeEditorProps {
  /** The input's id: the fallback textarea's, then the editor's content. */
  id: string
  /** The id of the visible label that names the editor (aria-labelledby). */
  labelId: string
  value: string
  onChange: (text: string) => void
  /** 'javascript', 'typescript', 'json', 'sql'; anything else is plain text. */
  lang: string
  variables?: readonly FormVariable[]
  /** How the text reaches the variables; without it nothing is offered. */
  variableSyntax?: VariableSyntax
  placeholder?: string
  readOnly?: boolean
  describedBy?: string
  invalid?: boolean
  required?: boolean
  testId: string
  /** Text with {{variables}} rather than code: the UI font, wrapped lines, no gutter. */
  prose?: boolean
}

let setupModule: Promise<typeof import('./code_editor_setup')> | undefined

/** CodeMirror comes in its own chunk, fetched when the first code field shows. */
function loadSetup() {
  setupModule ??= import('./code_editor_setup')
  return setupModule
}

/**
 * A code field: CodeMirror (highlighting, {{variable}} completion, syntax errors before a
 * run, resizable), drawn as a textarea with the same value until its chunk has loaded, so
 * that nothing typed meanwhile is lost. Tab indents; Escape then Tab leaves it.
 */
export function CodeEditor(props: CodeEditorProps) {
  const { t } = useTranslation()
  const host = useRef<HTMLDivElement>(null)
  const area = useRef<HTMLTextAreaElement>(null)
  const editor = useRef<CodeEditorHandle | null>(null)
  const [ready, setReady] = useState(false)
  const [problems, setProblems] = useState<CodeProblem[]>([])
  const latest = useRef(props)
  latest.current = props
  const focused = useRegisterInsertion((name) => {
    if (editor.current) editor.current.insertVariable(name)
    else {
      const element = area.current
      const current = latest.current
      const insert = current.variableSyntax === 'names' ? name : `{{${name}}}`
      const start = element?.selectionStart ?? current.value.length
      const end = element?.selectionEnd ?? start
      current.onChange(current.value.slice(0, start) + insert + current.value.slice(end))
    }
  })

  const problemsId = `${props.id}-problems`
  // Before CodeMirror has loaded, JSON is still checked (it needs no parser of its own).
  const fallbackProblem =
    !ready && props.lang === 'json' && props.value.trim() !== ''
      ? jsonProblem(props.value, props.variableSyntax === 'braces')
      : null
  const shownProblem = ready
    ? problems[0]?.message
    : fallbackProblem
      ? t('pluginForm.code.invalidJson', {
          line: props.value.slice(0, fallbackProblem.from).split('\n').length,
        })
      : undefined
  const keysId = `${props.id}-keys`
  const showKeys = !props.readOnly && !props.prose
  const describedBy =
    [props.describedBy, shownProblem ? problemsId : undefined, showKeys ? keysId : undefined]
      .filter(Boolean)
      .join(' ') || undefined
  const attributes: Record<string, string> = {
    'id': props.id,
    'aria-labelledby': props.labelId,
    'data-testid': props.testId,
    'data-lang': props.lang,
  }
  if (describedBy) attributes['aria-describedby'] = describedBy
  if (props.invalid || shownProblem) attributes['aria-invalid'] = 'true'
  if (props.required) attributes['aria-required'] = 'true'
  const attributesKey = JSON.stringify(attributes)
  const attributesKeyRef = useRef(attributesKey)
  attributesKeyRef.current = attributesKey

  useEffect(() => {
    let cancelled = false
    let handle: CodeEditorHandle | null = null
    loadSetup().then(({ createCodeEditor }) => {
      if (cancelled || !host.current) return
      const current = latest.current
      const textarea = area.current
      const hadFocus = !!textarea && document.activeElement === textarea
      handle = createCodeEditor({
        parent: host.current,
        // The textarea's text: what was typed while the chunk loaded.
        value: textarea?.value ?? current.value,
        lang: current.lang,
        variableSyntax: current.variableSyntax,
        variableNames: () => (latest.current.variables ?? []).map((variable) => variable.name),
        placeholder: current.placeholder,
        readOnly: !!current.readOnly,
        prose: current.prose,
        contentAttributes: JSON.parse(attributesKeyRef.current),
        selection:
          hadFocus && textarea
            ? { anchor: textarea.selectionStart, head: textarea.selectionEnd }
            : undefined,
        focus: hadFocus,
        onChange: (text) => latest.current.onChange(text),
        onProblems: setProblems,
        onFocus: focused,
        labels: {
          syntaxError: (line) => t('pluginForm.code.syntaxError', { line }),
          invalidJson: (line) => t('pluginForm.code.invalidJson', { line }),
        },
      })
      editor.current = handle
      setReady(true)
    })
    return () => {
      cancelled = true
      handle?.destroy()
      editor.current = null
    }
    // The language and the kind of field make a new editor; the rest is followed below.
  }, [props.lang, props.prose, props.variableSyntax])

  useEffect(() => {
    editor.current?.setValue(props.value)
  }, [props.value, ready])
  useEffect(() => {
    editor.current?.setReadOnly(!!props.readOnly)
  }, [props.readOnly, ready])
  useEffect(() => {
    editor.current?.setAttributes(JSON.parse(attributesKey))
  }, [attributesKey, ready])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    // Escape belongs to the editor (it closes the completion list and arms Escape-then-Tab);
    // the settings panel around it must not close.
    if (event.key === 'Escape') event.stopPropagation()
  }

  return (
    <div className="grid min-w-0 gap-1">
      <div
        data-testid={`${props.testId}-editor`}
        data-state={ready ? 'ready' : 'loading'}
        onKeyDown={onKeyDown}
        className={cn(
          'relative min-w-0 resize-y overflow-hidden rounded-md border border-input shadow-xs dark:bg-input/20',
          'focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50',
          (props.invalid || shownProblem) && 'border-destructive',
          props.prose ? 'h-24 min-h-16' : 'h-40 min-h-20'
        )}
      >
        <div ref={host} className="h-full" />
        {!ready && (
          <textarea
            ref={area}
            id={props.id}
            value={props.value}
            onChange={(event) => props.onChange(event.target.value)}
            onFocus={focused}
            placeholder={props.placeholder}
            readOnly={props.readOnly}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            aria-labelledby={props.labelId}
            aria-describedby={describedBy}
            aria-invalid={props.invalid || !!shownProblem || undefined}
            aria-required={props.required || undefined}
            data-testid={props.testId}
            className={cn(
              'absolute inset-0 block h-full w-full resize-none bg-transparent px-3 py-2 outline-none placeholder:text-muted-foreground',
              props.prose ? 'text-sm' : 'font-mono text-xs'
            )}
          />
        )}
      </div>
      {shownProblem && (
        <p
          id={problemsId}
          data-testid={`${props.testId}-problems`}
          className="text-xs text-destructive"
        >
          {shownProblem}
        </p>
      )}
      {showKeys && (
        <p id={keysId} className="text-xs text-muted-foreground">
          {t('pluginForm.code.keyboard')}
        </p>
      )}
    </div>
  )
}
