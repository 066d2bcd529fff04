import { Toaster as Sonner, type ToasterProps } from 'sonner'
import { useColorMode } from '~/hooks/use_color_mode'

/** The app's toaster: follows the colour mode; width is set per toast (300px, 450px with a description). */
export function Toaster(props: ToasterProps) {
  const { resolved } = useColorMode()
  return (
    <Sonner
      theme={resolved}
      position="bottom-right"
      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
          '--width': '300px',
        } as React.CSSProperties
      }
      {...props}
    />
  )
}
