import { lazy, Suspense, useMemo, type ComponentType } from 'react'
import { Skeleton } from '~/components/ui/skeleton'
import { pluginFilesOf } from '~/lib/plugin_registry'
import { PluginForm, type PluginFormProps } from './plugin_form'

/** What a plugin's own form.tsx receives: the same props as the generated form. */
export type CustomFormProps = PluginFormProps

/* Custom forms are found at build time, like the manifests, and loaded on first use. */
function customFormOf(slug: string) {
  return pluginFilesOf(slug)?.form as
    (() => Promise<{ default: ComponentType<CustomFormProps> }>) | undefined
}

export function hasCustomForm(slug: string) {
  return customFormOf(slug) !== undefined
}

/**
 * A block's settings form: the plugin's form.tsx when it ships one (docs/plugins.md),
 * else the form generated from its declaration.
 */
export function BlockForm({ slug, ...props }: PluginFormProps & { slug: string }) {
  const loader = customFormOf(slug)
  const Custom = useMemo(() => (loader ? lazy(loader) : null), [loader])
  if (!Custom) return <PluginForm {...props} />
  return (
    <Suspense fallback={<Skeleton className="h-24 w-full" />}>
      <div data-testid="custom-form" data-plugin={slug}>
        <Custom {...props} />
      </div>
    </Suspense>
  )
}
