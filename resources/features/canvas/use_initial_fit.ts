import { useEffect, useRef } from 'react'
import { useNodesInitialized, useReactFlow, useStore, type FitViewOptions } from '@xyflow/react'

const ALL_NODES = { includeHiddenNodes: true }

/**
 * The first view of a canvas shows the whole graph (docs/editor.md "Layout"). React Flow's
 * own fitView runs on size hints before the nodes are measured, and a canvas opened in a
 * dialog (the history's compare view) may have no size yet: the fit waits for both, once.
 */
export function useInitialFit(enabled: boolean, options: FitViewOptions) {
  const { fitView } = useReactFlow()
  const measured = useNodesInitialized(ALL_NODES)
  const sized = useStore((state) => state.width > 0 && state.height > 0)
  const fitted = useRef(false)
  useEffect(() => {
    if (!enabled || fitted.current || !measured || !sized) return
    fitted.current = true
    void fitView(options)
  }, [enabled, measured, sized, fitView, options])
}
