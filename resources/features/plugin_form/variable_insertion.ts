import { createContext, useCallback, useContext, useEffect, useRef } from 'react'

/**
 * Where the panel's Variables picker puts a variable: the field that last had the focus
 * and takes references (a text bubble, a code or value editor) registers how it inserts
 * one. A holder object rather than state: registering on focus must not re-render the panel.
 */
export interface InsertionTarget {
  current: ((variableName: string) => void) | null
}

export const VariableInsertion = createContext<InsertionTarget | null>(null)

/** The panel's holder, made once. */
export function useInsertionTarget(): InsertionTarget {
  const holder = useRef<InsertionTarget>(null)
  if (!holder.current) holder.current = { current: null }
  return holder.current
}

/**
 * A field's registration: call the returned function on focus. The field stops being the
 * target when it unmounts (the block closed, the option hidden).
 */
export function useRegisterInsertion(insert: (variableName: string) => void) {
  const target = useContext(VariableInsertion)
  const latest = useRef(insert)
  latest.current = insert
  const registered = useRef<((variableName: string) => void) | null>(null)
  useEffect(
    () => () => {
      if (target && registered.current && target.current === registered.current) {
        target.current = null
      }
    },
    [target]
  )
  return useCallback(() => {
    if (!target) return
    const insertNow = (variableName: string) => latest.current(variableName)
    registered.current = insertNow
    target.current = insertNow
  }, [target])
}
