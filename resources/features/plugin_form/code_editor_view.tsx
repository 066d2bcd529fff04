import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { createCodeEditor, type CodeEditorHandle, type CodeProblem } from './code_editor_setup'
import { frameClass, type CodeEditorProps } from './code_editor'
import { useRegisterInsertion } from './variable_insertion'
import { suggest } from './expressions'

/**
 * The code editor proper (its own chunk, with CodeMirror): highlighting, {{variable}}
 * completion, syntax errors before a run, resizable. Tab indents; Escape then Tab leaves
 * it. It takes over from the textarea of code_editor.tsx with its text, cursor and focus.
 */
export default function CodeEditorView(props: CodeEditorProps) {
  const { t } = useTranslation()
  const host = useRef<HTMLDivElement>(null)
  const editor = useRef<CodeEditorHandle | null>(null)
  const [ready, setReady] = useState(false)
  const [problems, setProblems] = useState<CodeProblem[]>([])
  const latest = useRef(props)
  latest.current = props
  const focused = useRegisterInsertion((name) => editor.current?.insertVariable(name))

  const problemsId = `${props.id}-problems`
  const shownProblem = problems[0]?.message
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
  // Marks the code that reads variables by name, where references go in as code.
  if (props.variableSyntax) attributes['data-variables'] = props.variableSyntax
  if (describedBy) attributes['aria-describedby'] = describedBy
  if (props.invalid || shownProblem) attributes['aria-invalid'] = 'true'
  if (props.required) attributes['aria-required'] = 'true'
  const attributesKey = JSON.stringify(attributes)
  const attributesKeyRef = useRef(attributesKey)
  attributesKeyRef.current = attributesKey

  useLayoutEffect(() => {
    const current = latest.current
    const handoff = current.handoff
    const handle = createCodeEditor({
      parent: host.current!,
      value: current.value,
      lang: current.lang,
      variableSyntax: current.variableSyntax,
      variableNames: () => (latest.current.variables ?? []).map((variable) => variable.name),
      suggest: (query) => {
        const { scope, variables = [] } = latest.current
        return suggest(query, scope ?? { variables })
      },
      createVariable: (name) => latest.current.scope?.createVariable?.(name)?.name,
      kindLabel: (kind) => t(`pluginForm.expressions.kinds.${kind}`),
      createLabel: (name) => t('pluginForm.expressions.create', { name }),
      placeholder: current.placeholder,
      readOnly: !!current.readOnly,
      prose: current.prose,
      contentAttributes: JSON.parse(attributesKeyRef.current),
      // Where the builder was typing in the textarea, if they were.
      selection: handoff?.focused ? handoff.selection : undefined,
      focus: handoff?.focused,
      onChange: (text) => latest.current.onChange(text),
      onProblems: setProblems,
      onFocus: focused,
      labels: {
        syntaxError: (line) => t('pluginForm.code.syntaxError', { line }),
        invalidJson: (line) => t('pluginForm.code.invalidJson', { line }),
      },
    })
    if (handoff) handoff.focused = false
    editor.current = handle
    setReady(true)
    return () => {
      handle.destroy()
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
        className={frameClass(props.prose, !!(props.invalid || shownProblem))}
      >
        <div ref={host} className="h-full" />
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
